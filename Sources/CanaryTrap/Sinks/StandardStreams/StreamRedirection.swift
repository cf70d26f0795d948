import Foundation

/// One standard stream redirected into a pipe: a dedicated thread drains the pipe into a
/// ``StreamBuffer`` and echoes every byte to the stream's original destination.
final class StreamRedirection: @unchecked Sendable {
  /// The redirected descriptor: 1 or 2.
  let descriptor: Int32
  private let original: Int32
  private let pipeReader: Int32
  private let buffer: StreamBuffer
  private let drained = DispatchSemaphore(value: 0)

  private init(descriptor: Int32, original: Int32, pipeReader: Int32, buffer: StreamBuffer) {
    self.descriptor = descriptor
    self.original = original
    self.pipeReader = pipeReader
    self.buffer = buffer
  }

  /// Points `descriptor` at a new pipe and starts draining it into `buffer`.
  static func install(descriptor: Int32, into buffer: StreamBuffer) throws -> StreamRedirection {
    let original = try POSIXStreams.duplicate(descriptor)
    let ends: (read: Int32, write: Int32)
    do {
      ends = try POSIXStreams.makePipe()
    } catch {
      POSIXStreams.closeDescriptor(original)
      throw error
    }
    POSIXStreams.flushStdio()
    guard POSIXStreams.redirect(ends.write, onto: descriptor) else {
      let reason = POSIXStreams.lastError
      [original, ends.read, ends.write].forEach(POSIXStreams.closeDescriptor)
      throw SinkError(sink: "standard-streams", reason: "dup2 onto fd \(descriptor) failed: \(reason)")
    }
    POSIXStreams.closeDescriptor(ends.write)
    POSIXStreams.makeNonBlocking(ends.read)
    let redirection = StreamRedirection(
      descriptor: descriptor, original: original, pipeReader: ends.read, buffer: buffer)
    let thread = Thread { redirection.drain() }
    thread.name = "CanaryTrap.drain-fd\(descriptor)"
    thread.start()
    return redirection
  }

  /// Waits until every byte written to the stream so far is in the buffer; false on timeout.
  func waitUntilDrained(timeout: TimeInterval) -> Bool {
    buffer.waitUntilStored(unreadInPipe: { POSIXStreams.pendingBytes(pipeReader) }, timeout: timeout)
  }

  /// Points the descriptor back at its original destination and waits (briefly) for the drain
  /// thread to echo what is left; a child process still holding the pipe only delays the echo.
  func restore(timeout: TimeInterval) {
    POSIXStreams.flushStdio()
    POSIXStreams.redirect(original, onto: descriptor)
    _ = drained.wait(timeout: .now() + timeout)
  }

  private func drain() {
    let chunkSize = 64 * 1024
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
    defer {
      chunk.deallocate()
      POSIXStreams.closeDescriptor(pipeReader)
      POSIXStreams.closeDescriptor(original)
      drained.signal()
    }
    while POSIXStreams.waitReadable(pipeReader) {
      let (count, echo) = buffer.store(chunk) { POSIXStreams.readChunk(pipeReader, into: $0) }
      if count == POSIXStreams.wouldBlock { continue }
      if count <= 0 { return }
      if echo { POSIXStreams.writeAll(original, UnsafeRawBufferPointer(rebasing: chunk[0..<count])) }
    }
  }
}

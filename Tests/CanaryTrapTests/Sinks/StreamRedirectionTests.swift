import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap

/// Exercises the redirection on a descriptor of its own (a temp file), so restoring and echoing
/// can be checked exactly without racing the other tests for fd 1 and 2.
@Suite struct StreamRedirectionTests {
  @Test func bytesAreCapturedEchoedAndTheDescriptorRestored() throws {
    let directory = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fileURL = directory.appendingPathComponent("stream.txt")
    #expect(FileManager.default.createFile(atPath: fileURL.path, contents: nil))
    let handle = try FileHandle(forWritingTo: fileURL)
    defer { try? handle.close() }
    let descriptor = handle.fileDescriptor

    let buffer = StreamBuffer()
    buffer.openWindow(1)
    let redirection = try StreamRedirection.install(descriptor: descriptor, into: buffer)
    let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    handle.write(payload)
    #expect(redirection.waitUntilDrained(timeout: 10))
    #expect(buffer.bytes(inWindow: 1) == payload)
    redirection.restore(timeout: 10)
    handle.write(Data("after restore".utf8))

    var expected = payload
    expected.append(Data("after restore".utf8))
    #expect(try Data(contentsOf: fileURL) == expected)  // echoed byte for byte, then direct
    #expect(buffer.bytes(inWindow: 1) == payload)  // nothing captured after the restore
  }

  @Test func aWaitIsNotStarvedByAWriterThatNeverStops() throws {
    let directory = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fileURL = directory.appendingPathComponent("stream.txt")
    #expect(FileManager.default.createFile(atPath: fileURL.path, contents: nil))
    let handle = try FileHandle(forWritingTo: fileURL)
    defer { try? handle.close() }
    let buffer = StreamBuffer()
    buffer.openWindow(1)
    buffer.suppressEcho(true)
    let redirection = try StreamRedirection.install(descriptor: handle.fileDescriptor, into: buffer)
    let stop = Locked(false)
    let stopped = DispatchSemaphore(value: 0)
    let noisy = Thread {
      let noise = Data(repeating: UInt8(ascii: "n"), count: 512)
      while !stop.current { handle.write(noise) }
      stopped.signal()
    }
    noisy.start()
    let marker = "marker-\(SinkTestSupport.canary())"
    for _ in 0..<50 {
      handle.write(Data(marker.utf8))
      #expect(redirection.waitUntilDrained(timeout: 10))
      #expect(SinkTestSupport.contains(buffer.bytes(inWindow: 1) ?? Data(), marker))
      buffer.closeWindow(1)
      buffer.openWindow(1)
    }
    stop.withLock { $0 = true }
    stopped.wait()
    redirection.restore(timeout: 10)
  }

  @Test func bytesNoWindowNeedsAreDropped() {
    let buffer = StreamBuffer()
    func feed(_ text: String) {
      let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
      defer { chunk.deallocate() }
      _ = buffer.store(chunk) { target in
        target.copyBytes(from: Array(text.utf8))
        return text.utf8.count
      }
    }
    buffer.openWindow(1)
    feed("first")
    buffer.openWindow(2)
    feed("second")
    #expect(buffer.bytes(inWindow: 1) == Data("firstsecond".utf8))
    #expect(buffer.bytes(inWindow: 2) == Data("second".utf8))
    buffer.closeWindow(1)
    #expect(buffer.bytes(inWindow: 2) == Data("second".utf8))
    #expect(buffer.bytes(inWindow: 1) == nil)
    buffer.closeWindow(2)
    #expect(buffer.endOffset == 11)
    feed("dropped")
    #expect(buffer.endOffset == 18)
    buffer.openWindow(3)
    #expect(buffer.bytes(inWindow: 3) == Data())
  }
}

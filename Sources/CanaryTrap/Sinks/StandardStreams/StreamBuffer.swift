import Foundation

/// The bytes captured from one standard stream, addressed by absolute offsets so that several
/// overlapping windows can share them; bytes no open window needs are dropped.
///
/// The drain thread reads the pipe while holding this buffer's lock (the pipe is non-blocking
/// and polled first, so the read never waits), which lets a reader take a consistent snapshot:
/// "stored so far plus unread in the pipe" is exactly everything written before that instant.
final class StreamBuffer: @unchecked Sendable {
  private let condition = NSCondition()
  private var base = 0
  private var bytes: [UInt8] = []
  private var windows: [UInt64: Int] = [:]
  private var echoSuppression = 0

  /// The absolute offset one past the last byte read from the pipe (stored or dropped).
  var endOffset: Int {
    condition.lock()
    defer { condition.unlock() }
    return base + bytes.count
  }

  /// Opens window `id` at the current end.
  func openWindow(_ id: UInt64) {
    condition.lock()
    defer { condition.unlock() }
    windows[id] = base + bytes.count
  }

  /// Closes window `id` and drops bytes no remaining window needs.
  func closeWindow(_ id: UInt64) {
    condition.lock()
    defer { condition.unlock() }
    windows[id] = nil
    trimLocked()
  }

  /// The bytes captured since window `id` opened, or nil if no such window is open.
  func bytes(inWindow id: UInt64) -> Data? {
    condition.lock()
    defer { condition.unlock() }
    guard let start = windows[id] else { return nil }
    return Data(bytes[(start - base)...])
  }

  /// Reads one chunk with `read` (which must not block) under the lock and stores what it got.
  ///
  /// `read` fills `chunk` and returns the count, 0 at end of file, or a negative value.
  /// Returns that count and whether the bytes should be echoed to the original stream.
  func store(
    _ chunk: UnsafeMutableRawBufferPointer, readingWith read: (UnsafeMutableRawBufferPointer) -> Int
  ) -> (count: Int, echo: Bool) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    let count = read(chunk)
    guard count > 0 else { return (count, false) }
    if windows.isEmpty {
      base += count
    } else {
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
    }
    return (count, echoSuppression == 0)
  }

  /// Waits until every byte written to the pipe before this call is stored; false on timeout.
  ///
  /// `unreadInPipe` reports how many bytes wait in the pipe; it is called under the lock, when
  /// no read is in progress, so stored plus unread is a consistent target. Writers that keep
  /// writing meanwhile cannot delay it past their earlier bytes.
  func waitUntilStored(unreadInPipe: () -> Int, timeout: TimeInterval) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    let target = base + bytes.count + unreadInPipe()
    while base + bytes.count < target {
      if !condition.wait(until: deadline) && base + bytes.count < target { return false }
    }
    return true
  }

  /// Stops (or, with `false`, resumes) echoing captured bytes to the original stream; nests.
  func suppressEcho(_ suppress: Bool) {
    condition.lock()
    defer { condition.unlock() }
    echoSuppression += suppress ? 1 : -1
  }

  private func trimLocked() {
    let keepFrom = windows.values.min() ?? (base + bytes.count)
    let drop = keepFrom - base
    guard drop > 0 else { return }
    bytes.removeFirst(drop)
    base = keepFrom
  }
}

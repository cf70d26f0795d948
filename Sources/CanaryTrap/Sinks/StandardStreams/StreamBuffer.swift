import Foundation

/// The bytes captured from one standard stream, addressed by absolute offsets so that several
/// overlapping windows can share them; bytes no open window needs are dropped.
final class StreamBuffer: @unchecked Sendable {
  private let condition = NSCondition()
  private var base = 0
  private var bytes: [UInt8] = []
  private var windows: [UInt64: Int] = [:]
  private var readsInFlight = 0
  private var echoSuppression = 0

  /// The absolute offset one past the last captured byte.
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

  /// Marks that the drain thread is about to read from the pipe.
  func beginRead() {
    condition.lock()
    readsInFlight += 1
    condition.unlock()
  }

  /// Stores a chunk the drain thread read; returns whether to echo it to the original stream.
  func finishRead(_ chunk: UnsafeRawBufferPointer) -> Bool {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    readsInFlight -= 1
    if windows.isEmpty {
      base += chunk.count
    } else {
      bytes.append(contentsOf: chunk)
    }
    return echoSuppression == 0
  }

  /// Waits until the pipe holds nothing unread and no read is in progress; false on timeout.
  func waitUntilDrained(pending: () -> Int, timeout: TimeInterval) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      condition.unlock()
      let unread = pending()
      condition.lock()
      if unread == 0 && readsInFlight == 0 { return true }
      if Date() >= deadline { return false }
      _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.005)))
    }
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

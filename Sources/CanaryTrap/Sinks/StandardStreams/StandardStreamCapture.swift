import CanaryTrapPrimitives
import Foundation

/// The process-wide capture of file descriptors 1 and 2, shared by every scope: the first window
/// opened installs it, the last one closed restores both descriptors exactly.
final class StandardStreamCapture: Sendable {
  /// The one capture of this process.
  static let shared = StandardStreamCapture()

  /// Bytes written to standard output (fd 1).
  let standardOutput = StreamBuffer()
  /// Bytes written to standard error (fd 2).
  let standardError = StreamBuffer()

  private let state = Locked(State())

  private struct State {
    var openWindows = 0
    var nextWindow: UInt64 = 1
    var redirections: [StreamRedirection] = []
  }

  /// How long a collect waits for the drain threads to catch up before failing.
  static let drainTimeout: TimeInterval = 10
  /// How long restoring waits for the drain threads to echo their last bytes.
  static let restoreTimeout: TimeInterval = 2

  /// Whether the descriptors are redirected right now.
  var isCapturing: Bool {
    state.withLock { !$0.redirections.isEmpty }
  }

  /// Opens a window on both streams, installing the capture if it is the first; returns its id.
  func openWindow() throws -> UInt64 {
    try state.withLock { state in
      if state.openWindows == 0 {
        let output = try StreamRedirection.install(descriptor: 1, into: standardOutput)
        do {
          let error = try StreamRedirection.install(descriptor: 2, into: standardError)
          state.redirections = [output, error]
        } catch {
          output.restore(timeout: Self.restoreTimeout)
          throw error
        }
      } else {
        // Bytes written before this window opened must not land in it: store them first.
        POSIXStreams.flushStdio()
        for redirection in state.redirections {
          _ = redirection.waitUntilDrained(timeout: Self.restoreTimeout)
        }
      }
      state.openWindows += 1
      let id = state.nextWindow
      state.nextWindow += 1
      standardOutput.openWindow(id)
      standardError.openWindow(id)
      return id
    }
  }

  /// The bytes each stream received since window `id` opened, after flushing C stdio and waiting
  /// for the drain threads to store everything already written.
  func contents(ofWindow id: UInt64) throws -> (output: Data, error: Data) {
    POSIXStreams.flushStdio()
    let redirections = state.withLock { $0.redirections }
    for redirection in redirections where !redirection.waitUntilDrained(timeout: Self.drainTimeout) {
      throw SinkError(
        sink: "standard-streams",
        reason: "fd \(redirection.descriptor) was not drained within \(Int(Self.drainTimeout)) s")
    }
    guard let output = standardOutput.bytes(inWindow: id), let error = standardError.bytes(inWindow: id)
    else {
      throw SinkError(sink: "standard-streams", reason: "window \(id) is not open")
    }
    return (output, error)
  }

  /// Closes window `id`; the last window restores fd 1 and 2.
  func closeWindow(_ id: UInt64) {
    state.withLock { state in
      standardOutput.closeWindow(id)
      standardError.closeWindow(id)
      state.openWindows -= 1
      guard state.openWindows == 0 else { return }
      for redirection in state.redirections {
        redirection.restore(timeout: Self.restoreTimeout)
      }
      state.redirections = []
    }
  }
}

import CanaryTrapPrimitives
import Foundation

/// Captures standard output and standard error at the file-descriptor level, so `print`,
/// `debugPrint`, `dump`, `NSLog`, `FileHandle.standardError` and C `fputs` are all caught.
///
/// Each scope reading it gets its own window: the bytes written between its ``begin(_:)`` and its
/// ``collect(_:)``. Windows of scopes running in parallel share one capture and may overlap (each
/// test's canaries are unique, so another test's output in a window is harmless), so one
/// instance may serve many scopes at once. Output is still
/// echoed to the original streams, so the developer sees it.
public final class StandardStreamsSink: LeakSink, ImmediatelyBeginningSink {
  /// A standard stream to scan.
  public enum Stream: String, Sendable, Hashable, CaseIterable {
    /// File descriptor 1; findings are named `stdout`.
    case standardOutput = "stdout"
    /// File descriptor 2; findings are named `stderr`.
    case standardError = "stderr"
  }

  /// The sink's name; findings name the stream itself, `stdout` or `stderr`.
  public let name: String
  /// The streams this sink reports.
  package let streams: [Stream]
  /// The capture's window id of each open ``SinkWindow``.
  private let windows = Locked<[SinkWindow: UInt64]>([:])

  /// Creates a window on `streams` (both by default).
  public init(name: String = "standard-streams", streams: [Stream] = Stream.allCases) {
    self.name = name
    self.streams = streams
  }

  /// Opens this sink's window, installing the process-wide capture if none is running.
  public func begin() async throws { try await begin(.standalone) }

  /// The bytes written to each stream since ``begin()``: contents named `stdout` and `stderr`.
  public func collect() async throws -> [SinkContent] { try await collect(.standalone) }

  /// Closes the window; the last open window restores fd 1 and 2.
  public func end() async { await end(.standalone) }

  /// Opens a capture window for `window`, installing the process-wide capture if none is running.
  public func begin(_ window: SinkWindow) async throws {
    try await BlockingWork.run { try self.beginImmediately(window) }
  }

  func beginImmediately(_ window: SinkWindow) throws {
    try windows.withLock { windows in
      guard windows[window] == nil else { throw SinkError.alreadyBegun(name) }
      windows[window] = try StandardStreamCapture.shared.openWindow()
    }
  }

  /// The bytes written to each stream during `window`: contents named `stdout` and `stderr`.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] {
    guard let id = windows.withLock({ $0[window] }) else { throw SinkError.notBegun(name) }
    let captured = try await BlockingWork.run { try StandardStreamCapture.shared.contents(ofWindow: id) }
    return streams.map { stream in
      switch stream {
      case .standardOutput: .bytes(captured.output, name: stream.rawValue)
      case .standardError: .bytes(captured.error, name: stream.rawValue)
      }
    }
  }

  /// Closes `window`; the last open window of the process restores fd 1 and 2.
  public func end(_ window: SinkWindow) async {
    guard let id = windows.withLock({ $0.removeValue(forKey: window) }) else { return }
    _ = try? await BlockingWork.run { StandardStreamCapture.shared.closeWindow(id) }
  }
}

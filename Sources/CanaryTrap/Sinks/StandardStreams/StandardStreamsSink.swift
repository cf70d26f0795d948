import Foundation

/// Captures standard output and standard error at the file-descriptor level, so `print`,
/// `debugPrint`, `dump`, `NSLog`, `FileHandle.standardError` and C `fputs` are all caught.
///
/// Every instance is one window: the bytes written between its ``begin()`` and its
/// ``collect()``. Windows of scopes running in parallel share one capture and may overlap (each
/// test's canaries are unique, so another test's output in a window is harmless). Output is still
/// echoed to the original streams, so the developer sees it.
public final class StandardStreamsSink: LeakSink {
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
  public let streams: [Stream]
  private let window = Locked<UInt64?>(nil)

  /// Creates a window on `streams` (both by default).
  public init(name: String = "standard-streams", streams: [Stream] = Stream.allCases) {
    self.name = name
    self.streams = streams
  }

  /// Opens this sink's window, installing the process-wide capture if none is running.
  public func begin() async throws {
    let name = self.name
    let window = self.window
    try await BlockingWork.run {
      try window.withLock { window in
        guard window == nil else { throw SinkError.alreadyBegun(name) }
        window = try StandardStreamCapture.shared.openWindow()
      }
    }
  }

  /// The bytes written to each stream since ``begin()``: contents named `stdout` and `stderr`.
  public func collect() async throws -> [SinkContent] {
    guard let id = window.current else { throw SinkError.notBegun(name) }
    let captured = try await BlockingWork.run { try StandardStreamCapture.shared.contents(ofWindow: id) }
    return streams.map { stream in
      switch stream {
      case .standardOutput: .bytes(captured.output, name: stream.rawValue)
      case .standardError: .bytes(captured.error, name: stream.rawValue)
      }
    }
  }

  /// Closes the window; the last open window restores fd 1 and 2.
  public func end() async {
    let id = window.withLock { window -> UInt64? in
      defer { window = nil }
      return window
    }
    guard let id else { return }
    _ = try? await BlockingWork.run { StandardStreamCapture.shared.closeWindow(id) }
  }
}

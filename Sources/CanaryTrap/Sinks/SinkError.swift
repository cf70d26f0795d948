import Foundation

/// Why a sink could not deliver what it captured; a scope reports it as a failed source, never a pass.
public struct SinkError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// The name of the sink that failed.
  public var sink: String
  /// What went wrong, in one sentence.
  public var reason: String

  /// Creates an error for the sink named `sink`.
  public init(sink: String, reason: String) {
    self.sink = sink
    self.reason = reason
  }

  /// The error as one line: the sink's name and the reason.
  public var description: String { "sink \(sink): \(reason)" }

  /// The same line as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }

  static func notBegun(_ sink: String) -> SinkError {
    SinkError(sink: sink, reason: "collect() was called before begin()")
  }

  static func alreadyBegun(_ sink: String) -> SinkError {
    SinkError(sink: sink, reason: "begin() was called twice without end()")
  }

  static func unavailable(_ sink: String, _ what: String) -> SinkError {
    SinkError(sink: sink, reason: "\(what) is unavailable on this platform")
  }
}

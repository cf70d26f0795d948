import CanaryTrap

/// Where an example system writes its log lines; CanaryTrap's memory log conforms to it.
public protocol LogSink: Sendable {
  /// Records one line.
  func write(_ line: String)
}

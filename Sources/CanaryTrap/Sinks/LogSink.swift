/// Where an app's logger writes its lines; hand CanaryTrap's ``MemoryLog`` to a logger that takes one.
public protocol LogSink: Sendable {
  /// Records one line.
  func write(_ line: String)
}

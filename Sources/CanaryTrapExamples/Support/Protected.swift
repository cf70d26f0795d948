import Foundation

/// A value guarded by a lock, the small helper most apps keep for state shared across threads;
/// the examples use their own so that they depend on CanaryTrap for nothing but `LogSink`.
final class Protected<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Creates a guarded value.
  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

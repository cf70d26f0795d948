import Foundation

/// A value guarded by a lock, safe to share between tasks and threads.
///
/// `Synchronization.Mutex` needs macOS 15 and iOS 18; this wrapper keeps the package on
/// macOS 13 and iOS 16.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  /// Only touched under `lock`, and `lock` is not recursive: no two accesses can overlap, so the
  /// runtime's exclusivity check (a thread-local lookup per access) is left out.
  @exclusivity(unchecked) private var value: Value

  /// Creates a lock guarding `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value and returns its result.
  @discardableResult
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A copy of the value at this instant.
  package var current: Value {
    withLock { $0 }
  }
}

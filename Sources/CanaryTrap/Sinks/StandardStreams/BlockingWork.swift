import Dispatch

/// Runs work that may block (waiting for a drain thread, restoring descriptors) on a Dispatch
/// global queue, so it never ties up a thread of Swift's cooperative pool.
enum BlockingWork {
  /// The result of `work`, computed on a global queue.
  static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try work() })
      }
    }
  }
}

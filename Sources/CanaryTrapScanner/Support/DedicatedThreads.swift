import Foundation

/// Long computations run on threads of their own rather than on the shared dispatch and Swift
/// concurrency pools: a pool has one thread per processor, and a computation holding them makes
/// every other task wait (the scope's requests, while its scanner is built).
package enum DedicatedThreads {
  /// The stack of each thread: as much as a pool thread's, for the unoptimized build's frames.
  static let stackSize = 8 << 20

  /// The result of `body`, run on a new thread `name` while the calling task waits without
  /// holding a pool thread.
  package static func run<Result: Sendable>(named name: String, _ body: @escaping @Sendable () -> Result)
    async
    -> Result
  {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: body()) }
      thread.name = name
      thread.stackSize = stackSize
      thread.start()
    }
  }

  /// Calls `body` with each of `0..<iterations`, concurrently: the first on the calling thread,
  /// each other on a new thread; returns once every call has returned.
  package static func concurrentPerform(iterations: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let finished = DispatchGroup()
    for worker in 1..<max(1, iterations) {
      finished.enter()
      let thread = Thread {
        body(worker)
        finished.leave()
      }
      thread.stackSize = stackSize
      thread.start()
    }
    if iterations > 0 { body(0) }
    finished.wait()
  }
}

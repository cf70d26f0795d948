import Dispatch

/// Runs the jobs of a task on a serial Dispatch queue instead of Swift's cooperative pool, so an
/// in-process command that blocks its thread (a FIFO's bounded wait polls) neither waits for a
/// cooperative thread to come free nor holds one that other tests need: on a two-core machine the
/// pool has two threads, and tests that block them starved a command for more than 30 s.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class BlockingWorkExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "canary.tests.blocking-work")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  /// Starts `body` as a task whose every job, the first included, runs on a new executor of
  /// this kind where the platform has task executors (on the cooperative pool elsewhere).
  static func start(_ body: @escaping @Sendable () async -> Void) {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      Task(executorPreference: BlockingWorkExecutor()) { await body() }
    } else {
      Task { await body() }
    }
  }
}

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A data task whose redirects a ``RedirectRecorder`` sees, awaited from Swift concurrency: when
/// the awaiting task is cancelled, the data task is cancelled too, as an app's transport must do
/// for its cancellation path to run.
enum RecordedDataTask {
  /// Holds the running `URLSessionTask`, which is thread-safe but not `Sendable` everywhere.
  private struct Running: @unchecked Sendable {
    let task: URLSessionTask
  }

  /// Sends `request` on `session`, whose delegate is `recorder`, and returns the response with
  /// the redirects followed on the way.
  static func load(_ request: URLRequest, on session: URLSession, recorder: RedirectRecorder)
    async throws -> (Data, URLResponse, [RedirectRecorder.Hop])
  {
    let running = Protected<Running?>(nil)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          let identifier = running.withLock { $0?.task.taskIdentifier } ?? -1
          let hops = recorder.takeHops(for: identifier)
          if let data, let response {
            continuation.resume(returning: (data, response, hops))
          } else {
            continuation.resume(throwing: error ?? URLError(.badServerResponse))
          }
        }
        running.withLock { $0 = Running(task: task) }
        task.resume()
        if Task.isCancelled { task.cancel() }
      }
    } onCancel: {
      // Not cancelled in place: the handler may run on a session's work queue (a URLProtocol's
      // stopLoading does), and FoundationNetworking's cancel() waits for the queue all its sessions
      // share, which would then wait for itself.
      guard let running = running.withLock({ $0 }) else { return }
      DispatchQueue.global().async { running.task.cancel() }
    }
  }
}

import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A URLSession whose data-task delegate hands each piece of a body to `onChunk` as it arrives,
/// the way an app reads a stream where `URLSession.bytes(for:)` is missing (FoundationNetworking).
final class StreamingSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private struct Running {
    var data = Data()
    var chunks = 0
    var onChunk: @Sendable (Data) -> Void
    var finish: @Sendable (Result<(Data, URLResponse, Int), any Error>) -> Void
  }

  private let running = Locked<[Int: Running]>([:])
  private(set) var session: URLSession!

  override init() {
    super.init()
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.timeoutIntervalForRequest = 10
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }

  /// Sends `request`, calls `onChunk` with every piece received, and returns the whole body, the
  /// response and how many pieces arrived.
  func send(_ request: URLRequest, onChunk: @escaping @Sendable (Data) -> Void = { _ in }) async throws
    -> (Data, URLResponse, Int)
  {
    try await withCheckedThrowingContinuation { continuation in
      let task = session.dataTask(with: request)
      running.withLock {
        $0[task.taskIdentifier] = Running(onChunk: onChunk) { continuation.resume(with: $0) }
      }
      task.resume()
    }
  }

  /// A transport that logs every piece with `log` before the app sees the whole body.
  func transport(logging log: (@Sendable (Data) -> Void)? = nil) -> Transport {
    Transport { request in
      let (data, response, _) = try await self.send(request) { log?($0) }
      return (data, response)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let onChunk = running.withLock { running -> (@Sendable (Data) -> Void)? in
      running[dataTask.taskIdentifier]?.data.append(data)
      running[dataTask.taskIdentifier]?.chunks += 1
      return running[dataTask.taskIdentifier]?.onChunk
    }
    onChunk?(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let state = running.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    if let error {
      state.finish(.failure(error))
    } else if let response = task.response {
      state.finish(.success((state.data, response, state.chunks)))
    } else {
      state.finish(.failure(URLError(.badServerResponse)))
    }
  }
}

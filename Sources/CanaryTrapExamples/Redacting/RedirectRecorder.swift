import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A session delegate that follows redirects and remembers each hop per task, so a transport
/// can log where a request was sent on its way.
final class RedirectRecorder: NSObject, URLSessionTaskDelegate, Sendable {
  /// One redirect response: its status and the `Location` it pointed to.
  struct Hop: Sendable {
    let status: Int
    let location: URL?
  }

  private let hops = Protected<[Int: [Hop]]>([:])

  /// Records the hop and lets the session follow it.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let hop = Hop(status: response.statusCode, location: request.url)
    hops.withLock { $0[task.taskIdentifier, default: []].append(hop) }
    completionHandler(request)
  }

  /// Removes and returns the hops recorded for the task.
  func takeHops(for taskIdentifier: Int) -> [Hop] {
    hops.withLock { $0.removeValue(forKey: taskIdentifier) ?? [] }
  }
}

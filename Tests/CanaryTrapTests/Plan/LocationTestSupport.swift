import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Transports and session delegates for the location tests: loggers of one chosen detail, and
/// URLSessions that answer challenges or refuse redirects.
enum LocationTransports {
  /// Writes the lines `describe` makes of each exchange into `log`, after `base` sent it.
  static func logging(
    _ base: Transport, into log: some LogSink,
    describe: @escaping @Sendable (URLRequest, HTTPURLResponse?) -> [String]
  ) -> Transport {
    Transport { request in
      let (data, response) = try await base.send(request)
      for line in describe(request, response as? HTTPURLResponse) { log.write(line) }
      return (data, response)
    }
  }

  /// The method and route only, as a careful logger writes them.
  static func route(_ request: URLRequest) -> String {
    let segments = (request.url?.path ?? "").split(separator: "/").prefix(2)
    return "\(request.httpMethod ?? "GET") /" + segments.joined(separator: "/")
  }

  /// A session whose delegate answers every Basic challenge with `credentials` (when set) and
  /// refuses redirects when `followRedirects` is false.
  static func session(delegate: TestSessionDelegate) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }
}

/// A session delegate that answers challenges with a credential given per request, or cancels
/// them, and follows redirects or hands the 3xx to the app.
final class TestSessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  /// The credential for the next challenge; nil cancels it.
  let credential = Locked<URLCredential?>(nil)
  /// The authentication methods of the challenges received, in order.
  let challenges = Locked<[String]>([])
  let followRedirects: Bool

  init(followRedirects: Bool = true) {
    self.followRedirects = followRedirects
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    challenges.withLock { $0.append(challenge.protectionSpace.authenticationMethod) }
    if challenge.previousFailureCount == 0, let credential = credential.current {
      completionHandler(.useCredential, credential)
    } else {
      completionHandler(.cancelAuthenticationChallenge, nil)
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(followRedirects ? request : nil)
  }
}

/// A way an HTTP exchange fails on purpose, so that the app's error path runs with canaries in
/// hand: apps log most when a request fails, and error logs feed crash reporters.
///
/// Each failure has a kind of its own in the default matrix (see <doc:FailurePaths>) and names the
/// locations of its canaries, such as `failure[timed-out].request.url.query[token]` (see
/// ``CanaryLocation/failedExchange(_:_:)``).
public enum ExchangeFailure: String, Sendable, Hashable, CaseIterable {
  /// The server closes the connection after the whole request arrived, without a response.
  case connectionClosed = "connection-closed"
  /// The server sends the head and half of the body, then closes the connection.
  case closedMidBody = "closed-mid-body"
  /// The server answers only after the request's `timeoutInterval`.
  case timedOut = "timed-out"
  /// The server answers with a status line that is not HTTP (`HTTP/1.1 2OO OK`).
  case malformedStatusLine = "malformed-status-line"
  /// A `200` declared `application/json` whose body is not JSON, with canaries in it.
  case invalidJSON = "invalid-json"
  /// A `200` in `text/html` to a request that accepts only JSON, with canaries in it.
  case wrongContentType = "wrong-content-type"
  /// A `503` with `Retry-After`, then success for every later request: the retry path.
  case serviceUnavailable = "service-unavailable"
  /// A `429 Too Many Requests` with `Retry-After`, every time.
  case tooManyRequests = "too-many-requests"
  /// A connection to a loopback port that refuses it: nothing reaches any server.
  case connectionRefused = "connection-refused"
  /// The request is cancelled (its Swift task is) once the server has received it.
  case cancelled = "cancelled"

  /// What happens to the exchange, in words, such as "the connection closed after the request
  /// arrived, with no response".
  package var summary: String {
    switch self {
    case .connectionClosed: "the connection closed after the request arrived, with no response"
    case .closedMidBody: "the connection closed in the middle of the response body"
    case .timedOut: "no answer came within the request's timeout"
    case .malformedStatusLine: "the response's status line was malformed"
    case .invalidJSON: "the response declared JSON but its body was not JSON"
    case .wrongContentType: "the response was HTML where JSON was asked for"
    case .serviceUnavailable: "the server answered 503 with Retry-After, then succeeded"
    case .tooManyRequests: "the server answered 429 Too Many Requests with Retry-After"
    case .connectionRefused: "the connection was refused"
    case .cancelled: "the request was cancelled after the server received it"
    }
  }

  /// Whether the failure reaches the app only as a thrown error: no status can stand for it.
  package var mustThrow: Bool { acceptedStatuses.isEmpty }

  /// The statuses a transport may return for the failure (besides throwing): the failure's own,
  /// and `200` after a retry for ``serviceUnavailable``.
  package var acceptedStatuses: Set<Int> {
    switch self {
    case .invalidJSON, .wrongContentType: [200]
    case .serviceUnavailable: [503, 200]
    case .tooManyRequests: [429]
    case .connectionClosed, .closedMidBody, .timedOut, .malformedStatusLine, .connectionRefused, .cancelled:
      []
    }
  }
}

import Foundation

/// What an ``IngestSink`` answers an upload: a status, and `Retry-After` for the statuses an SDK
/// retries, so a test can run the SDK's retry path too.
public struct IngestAnswer: Sendable, Hashable {
  /// The status code, such as 200 or 429.
  package var status: Int
  /// The seconds sent in `Retry-After`, or nil to send none.
  package var retryAfter: Int?

  /// Creates an answer with `status` and, when given, `Retry-After: retryAfter`.
  public init(status: Int, retryAfter: Int? = nil) {
    self.status = status
    self.retryAfter = retryAfter
  }

  /// 200 OK, what Sentry, OTLP/HTTP and log shippers expect.
  public static let ok = IngestAnswer(status: 200)

  /// 202 Accepted, what Datadog's intake answers.
  public static let accepted = IngestAnswer(status: 202)

  /// 429 Too Many Requests with `Retry-After: seconds`.
  public static func tooManyRequests(retryAfter seconds: Int) -> IngestAnswer {
    IngestAnswer(status: 429, retryAfter: seconds)
  }

  /// 503 Service Unavailable with `Retry-After: seconds`.
  public static func serviceUnavailable(retryAfter seconds: Int) -> IngestAnswer {
    IngestAnswer(status: 503, retryAfter: seconds)
  }

  /// The response the listener sends: an empty JSON object, which every SDK accepts.
  var response: ServerResponse {
    var response = ServerResponse.json("{}", status: status)
    if let retryAfter { response = response.header("Retry-After", String(retryAfter)) }
    return response
  }
}

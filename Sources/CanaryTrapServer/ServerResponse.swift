import Foundation

/// A scripted answer: status with any reason phrase, ordered headers, a fixed or chunked body, an
/// optional delay and an optional fault.
public struct ServerResponse: Sendable {
  /// How the body is sent.
  package enum Body: Sendable, Hashable {
    /// Sent in one piece with `Content-Length`.
    case fixed(Data)
    /// Sent with `Transfer-Encoding: chunked`, one chunk per element (empty elements are skipped).
    case chunked([Data])

    /// Every byte of the body, chunks joined.
    package var data: Data {
      switch self {
      case .fixed(let data): data
      case .chunked(let chunks): chunks.reduce(into: Data()) { $0.append($1) }
      }
    }
  }

  /// A way to break the exchange on purpose, to exercise the app's error paths.
  package enum Fault: Sendable, Hashable {
    /// Close the connection without sending a final response: only the response's informational
    /// (`1xx`) responses, if any, go first.
    case closeBeforeResponse
    /// Send the head and half of the body, then close.
    case closeMidBody
    /// Abort the connection with a TCP reset (`SO_LINGER` 0) instead of answering.
    case reset
    /// Send the whole response with the last digit of its status code replaced by the letter `O`
    /// (`HTTP/1.1 20O OK`), a status line no HTTP client can parse, then close.
    case malformedStatusLine
  }

  /// The status code, such as 200 or 302.
  package var status: Int
  /// The reason phrase; nil uses the standard phrase for ``status``.
  package var reason: String?
  /// The header fields, in order; `Content-Length` or `Transfer-Encoding` are added when absent.
  package var headers: HTTPHeaders
  /// The body.
  package var body: Body
  /// How long to wait before answering; other connections are served meanwhile.
  package var delay: Duration?
  /// A fault to inject instead of (or in the middle of) the answer.
  package var fault: Fault?
  /// The interval between the chunks of a chunked body, sent as a stream (see ``paced(every:)``);
  /// nil sends the whole response at once.
  package var pacing: Duration? = nil
  /// Informational (`1xx`) responses sent before this one, in order, such as `103 Early Hints`
  /// (see ``preceded(by:)``); never sent to an HTTP/1.0 client.
  package var informational: [InformationalResponse] = []
  /// Trailer fields sent after the last chunk of a ``Body/chunked(_:)`` body (see
  /// ``trailer(_:_:)``); a fixed body, or one joined for an HTTP/1.0 client, has none.
  package var trailers = HTTPHeaders()

  /// Creates a response.
  package init(
    status: Int = 200, reason: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
    body: Body = .fixed(Data()), delay: Duration? = nil, fault: Fault? = nil
  ) {
    self.status = status
    self.reason = reason
    self.headers = headers
    self.body = body
    self.delay = delay
    self.fault = fault
  }

  /// A `text/plain; charset=utf-8` response.
  public static func text(_ text: String, status: Int = 200) -> ServerResponse {
    ServerResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .fixed(Data(text.utf8)))
  }

  /// An `application/json` response whose body is `jsonText` exactly as given.
  public static func json(_ jsonText: String, status: Int = 200) -> ServerResponse {
    ServerResponse(
      status: status, headers: ["Content-Type": "application/json"], body: .fixed(Data(jsonText.utf8)))
  }

  /// An `application/json` response encoding `object` with sorted keys and unescaped slashes.
  public static func json(object: some Encodable, status: Int = 200) -> ServerResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(object)) ?? Data("null".utf8)
    return ServerResponse(status: status, headers: ["Content-Type": "application/json"], body: .fixed(data))
  }

  /// An `application/json` response of a flat string dictionary, such as `["token": canary]`.
  public static func json(_ fields: [String: String], status: Int = 200) -> ServerResponse {
    json(object: fields, status: status)
  }

  /// A redirect (301, 302, 303, 307 or 308, or any status) to `location`, sent verbatim.
  public static func redirect(_ status: Int, to location: String) -> ServerResponse {
    ServerResponse(status: status, headers: ["Location": location, "Content-Type": "text/plain"])
  }

  /// An empty response with `status`.
  public static func status(_ status: Int, reason: String? = nil) -> ServerResponse {
    ServerResponse(status: status, reason: reason)
  }

  /// A copy with one more header field (earlier fields of the same name are kept).
  public func header(_ name: String, _ value: String) -> ServerResponse {
    var copy = self
    copy.headers.add(name, value)
    return copy
  }

  /// A copy answered only after `delay`.
  public func delayed(by delay: Duration) -> ServerResponse {
    var copy = self
    copy.delay = delay
    return copy
  }

  /// A copy that injects `fault`.
  package func failing(with fault: Fault) -> ServerResponse {
    var copy = self
    copy.fault = fault
    return copy
  }

  /// A copy with a different reason phrase.
  public func reason(_ reason: String) -> ServerResponse {
    var copy = self
    copy.reason = reason
    return copy
  }
}

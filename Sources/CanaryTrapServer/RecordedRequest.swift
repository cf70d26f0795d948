import CanaryTrapPrimitives
import Foundation

/// One request exactly as the loopback server received it: raw bytes and parsed form.
public struct RecordedRequest: Sendable {
  /// The position in the server's arrival order, from 0.
  package var sequence: Int
  /// The connection it arrived on, from 0 per server; pipelined requests share one.
  package var connectionID: Int
  /// The method token as sent, such as `POST`; empty when the request line was unreadable.
  public var method: String
  /// The request-target exactly as sent (origin form `/a?b`, absolute form `http://h/a`, ...).
  package var target: String
  /// The path, still percent-encoded, without the query.
  public var path: String
  /// The query after `?`, still percent-encoded, or nil.
  public var query: String?
  /// The HTTP version, such as `HTTP/1.1`.
  package var version: String
  /// The header fields in order, duplicates kept (non-UTF-8 bytes decoded lossily).
  public var headers: HTTPHeaders
  /// The body, de-chunked.
  public var body: Data
  /// The trailer fields of a chunked body.
  public var trailers: HTTPHeaders
  /// The exact bytes received for this request.
  package var raw: Data
  /// Why the request was malformed, or nil for a well-formed request.
  package var malformed: String?
  /// When the request was complete (or given up on).
  package var receivedAt: Date
  /// Bytes of ``body`` and then ``raw`` not kept because the server's record reached
  /// ``LoopbackServer/Configuration/maxRecordedBytes`` (the handler saw them all); 0 when whole.
  package var droppedBytes: Int = 0

  /// Creates a recorded request; the server makes these, tests may too.
  package init(
    sequence: Int = 0, connectionID: Int = 0, method: String, target: String, version: String = "HTTP/1.1",
    headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), trailers: HTTPHeaders = HTTPHeaders(),
    raw: Data = Data(), malformed: String? = nil, receivedAt: Date = Date()
  ) {
    self.sequence = sequence
    self.connectionID = connectionID
    self.method = method
    self.target = target
    let parts = RequestTarget(target)
    self.path = parts.path
    self.query = parts.query
    self.version = version
    self.headers = headers
    self.body = body
    self.trailers = trailers
    self.raw = raw
    self.malformed = malformed
    self.receivedAt = receivedAt
  }

  /// The query items, percent-decoded, in order (`+` is kept; see ``formFields`` for forms).
  public var queryItems: [(name: String, value: String)] {
    guard let query else { return [] }
    return PercentDecoding.pairs(query, plusIsSpace: false)
  }

  /// The first value of the query item `name`, percent-decoded.
  public func queryItem(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The cookies of every `Cookie` header, in order.
  public var cookies: [(name: String, value: String)] {
    headers.values(for: "Cookie").flatMap { header in
      header.split(separator: ";").compactMap { pair -> (String, String)? in
        let trimmed = String(pair).trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        guard let equals = trimmed.firstIndex(of: "=") else { return (trimmed, "") }
        return (String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...]))
      }
    }
  }

  /// The body's fields when it is `application/x-www-form-urlencoded` (`+` decoded as space).
  public var formFields: [(name: String, value: String)] {
    guard let type = headers["Content-Type"], type.lowercased().hasPrefix("application/x-www-form-urlencoded")
    else { return [] }
    return PercentDecoding.pairs(String(decoding: body, as: UTF8.self), plusIsSpace: true)
  }

  /// The parsed body when it is `multipart/*` with a boundary, otherwise nil.
  public var multipart: MultipartBody? {
    guard let type = headers["Content-Type"] else { return nil }
    return MultipartBody(contentType: type, body: body)
  }

  /// The body decoded as UTF-8 (lossily).
  public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// The path and query of a request-target in any of the four forms.
struct RequestTarget {
  var path: String
  var query: String?

  init(_ target: String) {
    // An ASCII target is one Character per byte (CR LF cannot occur in a target): scan bytes.
    if target.utf8.allSatisfy({ $0 < 0x80 }), target.utf8.first == UInt8(ascii: "/") {
      var end = target.utf8.endIndex
      if let hash = target.utf8.firstIndex(of: UInt8(ascii: "#")) { end = hash }
      let bytes = target.utf8[..<end]
      if let question = bytes.firstIndex(of: UInt8(ascii: "?")) {
        path = String(target[..<question])
        query = String(target[target.utf8.index(after: question)..<end])
      } else {
        path = end == target.utf8.endIndex ? target : String(target[..<end])
        query = nil
      }
      return
    }
    var rest = Substring(target)
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    if !rest.hasPrefix("/"), let scheme = rest.range(of: "://") {
      let afterAuthority = rest[scheme.upperBound...]
      let pathStart = afterAuthority.firstIndex { $0 == "/" || $0 == "?" } ?? afterAuthority.endIndex
      rest = afterAuthority[pathStart...]
      if !rest.hasPrefix("/") { rest = "/" + rest }
    }
    if let question = rest.firstIndex(of: "?") {
      path = String(rest[..<question])
      query = String(rest[rest.index(after: question)...])
    } else {
      path = String(rest)
      query = nil
    }
  }
}

import Foundation

/// The request line and header fields of a request, as parsed from the wire.
struct ParsedRequestHead: Sendable {
  var method: String
  var target: String
  var version: String
  let headers: HTTPHeaders
  /// Which of the fields that decide framing and keep-alive the head has, found in one pass so
  /// that a head without them is never searched for them again.
  let framingFields: FramingFields

  init(method: String, target: String, version: String, headers: HTTPHeaders) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
    framingFields = FramingFields(headers)
  }

  /// Whether the client asked to keep the connection open after this exchange.
  var wantsKeepAlive: Bool {
    if version == "HTTP/1.0" {
      return framingFields.contains(.connection) && headers.hasToken("keep-alive", in: "Connection")
    }
    return !(framingFields.contains(.connection) && headers.hasToken("close", in: "Connection"))
  }
}

/// The header fields of a head that decide how its body is framed, whether the connection stays
/// open and whether the head is valid at all (RFC 9112 §3.2: one `Host`; §6.3: one
/// `Content-Length`), found in one pass over the names.
struct FramingFields: OptionSet, Sendable {
  let rawValue: UInt8
  static let expect = FramingFields(rawValue: 1)
  static let transferEncoding = FramingFields(rawValue: 2)
  static let contentLength = FramingFields(rawValue: 4)
  static let connection = FramingFields(rawValue: 8)
  static let host = FramingFields(rawValue: 16)
  /// More than one `Host` field line.
  static let repeatedHost = FramingFields(rawValue: 32)
  /// More than one `Content-Length` field line.
  static let repeatedContentLength = FramingFields(rawValue: 64)

  init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The framing fields among `headers` (names compared without case, lengths first).
  init(_ headers: HTTPHeaders) {
    var found: FramingFields = []
    for (name, _) in headers {
      switch name.utf8.count {
      case 4 where HTTPHeaders.namesMatch(name, "Host"):
        found.insert(found.contains(.host) ? .repeatedHost : .host)
      case 6 where HTTPHeaders.namesMatch(name, "Expect"): found.insert(.expect)
      case 10 where HTTPHeaders.namesMatch(name, "Connection"): found.insert(.connection)
      case 14 where HTTPHeaders.namesMatch(name, "Content-Length"):
        found.insert(found.contains(.contentLength) ? .repeatedContentLength : .contentLength)
      case 17 where HTTPHeaders.namesMatch(name, "Transfer-Encoding"): found.insert(.transferEncoding)
      default: break
      }
    }
    rawValue = found.rawValue
  }

  /// Why a head with these fields must be answered 400, or nil: an HTTP/1.1 request without
  /// `Host`, or any request with more than one `Host` or `Content-Length` field line (a
  /// recipient that took one of two could frame the message unlike the next hop).
  func problem(version: String) -> String? {
    if contains(.repeatedHost) { return "more than one Host field" }
    if !contains(.host) && version == "HTTP/1.1" { return "an HTTP/1.1 request without Host" }
    if contains(.repeatedContentLength) { return "more than one Content-Length field" }
    return nil
  }
}

/// A complete request: head, de-chunked body, trailers and the exact bytes received.
struct ParsedRequest: Sendable {
  var head: ParsedRequestHead
  var body: Data
  var trailers: HTTPHeaders
  /// The exact bytes received.
  var rawBytes: RawBytes

  /// Where a request's exact bytes are: a view of the parser's buffer, copied only when the
  /// request is recorded; or, for a request with a body, the one copy the body was cut from (so a
  /// large upload is held twice at most, never three times).
  enum RawBytes: Sendable {
    case view(ArraySlice<UInt8>)
    case data(Data)

    /// How many bytes were received.
    var count: Int {
      switch self {
      case .view(let bytes): bytes.count
      case .data(let data): data.count
      }
    }
  }

  /// The exact bytes received, as `Data` (copied out of the parser's buffer when they are a view).
  var raw: Data {
    switch rawBytes {
    case .view(let bytes): Self.data(bytes)
    case .data(let data): data
    }
  }

  /// The bytes as `Data`, copied from memory in one go (the generic initializer from a
  /// collection allocates once more).
  static func data(_ bytes: ArraySlice<UInt8>) -> Data {
    bytes.withUnsafeBytes { raw in raw.baseAddress.map { Data(bytes: $0, count: raw.count) } ?? Data() }
  }
}

/// What the server does about a request it could not take: each answer and then close, or close
/// without a word.
enum HTTPFailureOutcome: Sendable, Equatable {
  /// 400: malformed, or framed ambiguously.
  case badRequest
  /// 408: the head or body was not complete within its deadline.
  case requestTimeout
  /// 413: the body is larger than allowed.
  case contentTooLarge
  /// 431: the head or the trailers are larger than allowed.
  case headerFieldsTooLarge
  /// 501: a transfer coding the server does not decode.
  case notImplemented
  /// 505: an HTTP version other than 1.0 and 1.1.
  case versionNotSupported
  /// Nothing to answer: the client closed mid-request, or the connection was shed.
  case closeWithoutAnswer

  /// The status answered, or nil when the connection just closes.
  var status: Int? {
    switch self {
    case .badRequest: 400
    case .requestTimeout: 408
    case .contentTooLarge: 413
    case .headerFieldsTooLarge: 431
    case .notImplemented: 501
    case .versionNotSupported: 505
    case .closeWithoutAnswer: nil
    }
  }
}

/// Why a request could not be parsed, and what the server does about it.
struct HTTPParseFailure: Error, Sendable, Equatable {
  /// Answer (and which status) or close silently.
  var outcome: HTTPFailureOutcome
  /// The status answered, or nil when the connection closes without one.
  var status: Int? { outcome.status }
  /// A short human-readable reason, recorded as the request's `malformed` field.
  var reason: String
  /// The head, when it was parsed before the failure.
  var head: ParsedRequestHead?
  /// The bytes of the failed request received so far (capped).
  var raw: [UInt8]

  static func == (left: HTTPParseFailure, right: HTTPParseFailure) -> Bool {
    left.outcome == right.outcome && left.reason == right.reason && left.raw == right.raw
  }
}

/// What the parser found after being fed bytes.
enum HTTPParserEvent: Sendable {
  /// A complete request.
  case request(ParsedRequest)
  /// The client sent `Expect: 100-continue` and waits for `100 Continue` before the body.
  case continueExpected
  /// The input is malformed; the connection answers as the failure's outcome says and closes.
  case failure(HTTPParseFailure)
}

/// Byte classes used while parsing.
enum HTTPBytes {
  static let cr: UInt8 = 13
  static let lf: UInt8 = 10
  static let space: UInt8 = 32
  static let tab: UInt8 = 9
  static let colon: UInt8 = 58
  static let semicolon: UInt8 = 59

  /// Whether `byte` may appear in a token such as a method or header name (RFC 9110 tchar).
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// The value of a hexadecimal digit, or nil.
  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 48...57: Int(byte - 48)
    case 65...70: Int(byte - 55)
    case 97...102: Int(byte - 87)
    default: nil
    }
  }

  /// Decodes bytes as UTF-8, replacing invalid sequences, for the String views.
  static func string(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }
}

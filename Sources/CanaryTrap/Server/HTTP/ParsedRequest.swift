import Foundation

/// The request line and header fields of a request, as parsed from the wire.
struct ParsedRequestHead: Sendable {
  var method: String
  var target: String
  var version: String
  var headers: HTTPHeaders

  /// Whether the client asked to keep the connection open after this exchange.
  var wantsKeepAlive: Bool {
    if version == "HTTP/1.0" { return headers.hasToken("keep-alive", in: "Connection") }
    return !headers.hasToken("close", in: "Connection")
  }
}

/// A complete request: head, de-chunked body, trailers and the exact bytes received.
struct ParsedRequest: Sendable {
  var head: ParsedRequestHead
  var body: [UInt8]
  var trailers: HTTPHeaders
  var raw: Data
}

/// Why a request could not be parsed, with the status to answer (0 when the client is gone).
struct HTTPParseFailure: Error, Sendable, Equatable {
  /// The status to send, such as 400, 413 or 431; 0 means send nothing and close.
  var status: Int
  /// A short human-readable reason, recorded as the request's `malformed` field.
  var reason: String
  /// The head, when it was parsed before the failure.
  var head: ParsedRequestHead?
  /// The bytes of the failed request received so far (capped).
  var raw: [UInt8]

  static func == (left: HTTPParseFailure, right: HTTPParseFailure) -> Bool {
    left.status == right.status && left.reason == right.reason && left.raw == right.raw
  }
}

/// What the parser found after being fed bytes.
enum HTTPParserEvent: Sendable {
  /// A complete request.
  case request(ParsedRequest)
  /// The client sent `Expect: 100-continue` and waits for `100 Continue` before the body.
  case continueExpected
  /// The input is malformed; the connection must answer `status` (if not 0) and close.
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

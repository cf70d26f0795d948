import Foundation

/// Reads the parts of a recorded request that delivery proof compares against, decoded once:
/// the proof asks every request about every canary, so the decoded parts are kept.
package struct RequestInspection: Sendable {
  let request: RecordedRequest
  /// The decoded path segments after the leading slash, without their `;` parameters.
  let pathSegments: [String]
  /// Every `;name=value` parameter of every path segment, decoded.
  let pathParameters: [(name: String, value: String)]
  /// The query items, percent-decoded (`+` kept as is).
  let queryItems: [(name: String, value: String)]
  /// The cookies of every `Cookie` header.
  let cookies: [(name: String, value: String)]
  /// The fields of a form-urlencoded body (any body is read as one, as servers lenient about
  /// `Content-Type` do).
  let formFields: [(name: String, value: String)]
  /// The parts of a multipart body, exactly as `request.multipart` reads them; none when the
  /// body is not multipart.
  let multipartParts: [MultipartBody.Part]
  /// The `Content-Type` header.
  let contentType: String?
  /// The body parsed as JSON, when it is.
  let json: ParsedJSONBody?

  init(request: RecordedRequest) {
    self.request = request
    let rawSegments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    pathSegments = rawSegments.map { segment in
      Self.decode(segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }
    pathParameters = rawSegments.flatMap { segment in
      segment.split(separator: ";", omittingEmptySubsequences: false).dropFirst().map { parameter in
        Self.pair(parameter, plusIsSpace: false)
      }
    }
    if let query = request.query, !query.isEmpty {
      queryItems = query.split(separator: "&").map { Self.pair($0, plusIsSpace: false) }
    } else {
      queryItems = []
    }
    cookies = request.headers.values(for: "Cookie").flatMap { header in
      header.split(separator: ";").map { cookie in
        let trimmed = cookie.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
      }
    }
    formFields = request.body.isEmpty ? [] : Self.formPairs(String(decoding: request.body, as: UTF8.self))
    multipartParts = request.multipart?.parts ?? []
    contentType = request.headers["Content-Type"]
    json = request.body.isEmpty ? nil : ParsedJSONBody(request.body)
  }

  /// The user and password of the first `Basic` value of the header `name` (`Authorization` or
  /// `Proxy-Authorization`).
  func basicCredentials(in name: String) -> BasicCredentials? {
    for header in request.headers.values(for: name) {
      if let credentials = BasicCredentials(headerValue: header) { return credentials }
    }
    return nil
  }

  /// The fields of form-urlencoded `text`.
  static func formPairs(_ text: String) -> [(name: String, value: String)] {
    text.split(separator: "&").map { pair($0, plusIsSpace: true) }
  }

  /// `text` percent-decoded (and `+` as a space when `plusIsSpace`); when a `%` escape is not
  /// two hex digits or the bytes are not UTF-8, the text with only `+` replaced, as
  /// `removingPercentEncoding` does, without its cost.
  static func decode<Text: StringProtocol>(_ text: Text, plusIsSpace: Bool = false) -> String {
    let plus = UInt8(ascii: "+")
    let bytes = Array(text.utf8)
    guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == plus) }) else {
      return String(text)
    }
    let (decoded, allEscapesValid) = decodingEscapes(bytes, plusIsSpace: plusIsSpace)
    if allEscapesValid, let string = String(bytes: decoded, encoding: .utf8) { return string }
    return String(decoding: bytes.map { plusIsSpace && $0 == plus ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
  }

  /// `raw` with every `%XX` escape of two hex digits decoded (and `+` as a space when
  /// `plusIsSpace`), byte by byte: an escape that is not two hex digits stays as it is and the
  /// result need not be UTF-8, so neither a bad escape nor a binary body hides the other escapes.
  package static func percentDecodedBytes<Bytes: DataProtocol>(_ raw: Bytes, plusIsSpace: Bool) -> [UInt8] {
    decodingEscapes(Array(raw), plusIsSpace: plusIsSpace).bytes
  }

  /// `bytes` with every `%XX` escape of two hex digits decoded (and `+` as a space when
  /// `plusIsSpace`), other bytes kept, and whether every `%` began such an escape.
  private static func decodingEscapes(_ bytes: [UInt8], plusIsSpace: Bool) -> (bytes: [UInt8], allValid: Bool)
  {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var allValid = true
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
          let low = hexValue(bytes[index + 2])
        {
          out.append(high << 4 | low)
          index += 3
          continue
        }
        allValid = false
      }
      out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index += 1
    }
    return (out, allValid)
  }

  /// The value of one hex digit, or nil.
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func pair(_ item: Substring, plusIsSpace: Bool) -> (name: String, value: String) {
    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    let name = decode(parts[0], plusIsSpace: plusIsSpace)
    let value = parts.count > 1 ? decode(parts[1], plusIsSpace: plusIsSpace) : ""
    return (name, value)
  }
}

/// The user and password of a `Basic` header value (`Basic base64(user:password)`).
struct BasicCredentials: Equatable {
  var user: String
  var password: String

  /// Decodes `Basic …`; nil when the value is not Basic or not base64 of UTF-8.
  init?(headerValue: String) {
    let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("basic "),
      let data = Data(base64Encoded: String(trimmed.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
      let text = String(data: data, encoding: .utf8)
    else { return nil }
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    user = String(parts[0])
    password = parts.count > 1 ? String(parts[1]) : ""
  }

  /// The user or the password.
  subscript(part: CanaryLocation.CredentialPart) -> String {
    switch part {
    case .user: user
    case .password: password
    }
  }
}

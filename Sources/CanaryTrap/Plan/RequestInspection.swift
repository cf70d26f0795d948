import Foundation

/// Reads the parts of a recorded request that delivery proof compares against, decoded.
struct RequestInspection {
  let request: RecordedRequest

  /// The decoded path segments after the leading slash, without their `;` parameters.
  var pathSegments: [String] {
    rawSegments.map { segment in
      let name = segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
      return Self.decode(String(name))
    }
  }

  /// Every `;name=value` parameter of every path segment, decoded.
  var pathParameters: [(name: String, value: String)] {
    rawSegments.flatMap { segment in
      segment.split(separator: ";", omittingEmptySubsequences: false).dropFirst().map { parameter in
        Self.pair(String(parameter), plusIsSpace: false)
      }
    }
  }

  /// The query items, percent-decoded (`+` kept as is).
  var queryItems: [(name: String, value: String)] {
    guard let query = request.query, !query.isEmpty else { return [] }
    return query.split(separator: "&").map { Self.pair(String($0), plusIsSpace: false) }
  }

  /// The cookies of every `Cookie` header.
  var cookies: [(name: String, value: String)] {
    request.headers.values(for: "Cookie").flatMap { header in
      header.split(separator: ";").map { cookie in
        let trimmed = cookie.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
      }
    }
  }

  /// The user and password of the first `Basic` value of the header `name` (`Authorization` or
  /// `Proxy-Authorization`).
  func basicCredentials(in name: String) -> BasicCredentials? {
    for header in request.headers.values(for: name) {
      if let credentials = BasicCredentials(headerValue: header) { return credentials }
    }
    return nil
  }

  /// The fields of a form-urlencoded body.
  var formFields: [(name: String, value: String)] {
    Self.formPairs(String(decoding: request.body, as: UTF8.self))
  }

  /// The fields of form-urlencoded `text`.
  static func formPairs(_ text: String) -> [(name: String, value: String)] {
    text.split(separator: "&").map { pair(String($0), plusIsSpace: true) }
  }

  /// The parts of a multipart body, exactly as `request.multipart` reads them; none when the
  /// body is not multipart.
  var multipartParts: [MultipartBody.Part] { request.multipart?.parts ?? [] }

  /// The body as text.
  var bodyText: String { String(decoding: request.body, as: UTF8.self) }

  private var rawSegments: [Substring] {
    request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
  }

  static func decode(_ text: String, plusIsSpace: Bool = false) -> String {
    let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : text
    return spaced.removingPercentEncoding ?? spaced
  }

  private static func pair(_ item: String, plusIsSpace: Bool) -> (name: String, value: String) {
    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    let name = decode(String(parts[0]), plusIsSpace: plusIsSpace)
    let value = parts.count > 1 ? decode(String(parts[1]), plusIsSpace: plusIsSpace) : ""
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

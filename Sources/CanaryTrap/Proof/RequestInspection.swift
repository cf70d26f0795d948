import CanaryTrapPrimitives
import Foundation

/// Reads the parts of a recorded request that delivery proof compares against, decoded once:
/// the proof asks every request about every canary, so the decoded parts are kept.
package struct RequestInspection: Sendable {
  let request: RecordedRequest
  /// The decoded path segments after the leading slash, without their `;` parameters.
  let pathSegments: [String]
  /// Every `;name=value` parameter of every path segment, decoded.
  let pathParameters: [(name: String, value: String)]
  /// The query items, percent-decoded (`+` kept as is), as ``RecordedRequest/queryItems`` reads them.
  let queryItems: [(name: String, value: String)]
  /// The cookies of every `Cookie` header, as ``RecordedRequest/cookies`` reads them.
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
      PercentDecoding.decode(segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }
    pathParameters = rawSegments.flatMap { segment in
      segment.split(separator: ";", omittingEmptySubsequences: false).dropFirst().map { parameter in
        PercentDecoding.pair(parameter, plusIsSpace: false)
      }
    }
    queryItems = request.queryItems
    cookies = request.cookies
    formFields =
      request.body.isEmpty
      ? [] : PercentDecoding.pairs(String(decoding: request.body, as: UTF8.self), plusIsSpace: true)
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

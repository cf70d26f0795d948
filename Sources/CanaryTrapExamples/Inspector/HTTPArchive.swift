import Foundation

/// A HAR 1.2 document (HTTP Archive) of recorded exchanges, the format browsers and proxies
/// import.
package struct HTTPArchive: Encodable, Sendable {
  struct Log: Encodable, Sendable {
    var version = "1.2"
    var creator = Creator()
    var entries: [Entry]
  }

  struct Creator: Encodable, Sendable {
    var name = "NetworkInspector"
    var version = "1.0"
  }

  struct NameValue: Encodable, Sendable {
    var name: String
    var value: String
  }

  struct Entry: Encodable, Sendable {
    var startedDateTime: String
    var time: Double
    var request: Request
    var response: Response
    var cache: [String: String] = [:]
    var timings: [String: Double]
  }

  struct Request: Encodable, Sendable {
    var method: String
    var url: String
    var httpVersion = "HTTP/1.1"
    var headers: [NameValue]
    var queryString: [NameValue]
    var cookies: [NameValue] = []
    var postData: Content?
    var headersSize = -1
    var bodySize: Int
  }

  struct Response: Encodable, Sendable {
    var status: Int
    var statusText: String
    var httpVersion = "HTTP/1.1"
    var headers: [NameValue]
    var cookies: [NameValue] = []
    var content: Content
    var redirectURL: String
    var headersSize = -1
    var bodySize: Int
  }

  struct Content: Encodable, Sendable {
    var size: Int
    var mimeType: String
    var text: String?
    var encoding: String?
  }

  var log: Log

  /// Creates an archive of `entries`.
  package init(entries: [InspectorEntry]) {
    log = Log(entries: entries.map(Self.entry))
  }

  /// The archive as pretty-printed JSON.
  package func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  private static func entry(_ entry: InspectorEntry) -> Entry {
    let query = URLComponents(string: entry.url)?.queryItems ?? []
    let milliseconds = entry.duration * 1000
    let request = Request(
      method: entry.method, url: entry.url, headers: entry.requestHeaders.map(nameValue),
      queryString: query.map { NameValue(name: $0.name, value: $0.value ?? "") },
      postData: entry.requestBody.map { content($0, mimeType: entry.requestHeader("Content-Type")) },
      bodySize: entry.requestBody?.count ?? 0)
    let response = Response(
      status: entry.statusCode ?? 0,
      statusText: entry.error ?? "",
      headers: entry.responseHeaders.map(nameValue),
      content: content(entry.responseBody ?? Data(), mimeType: entry.responseHeader("Content-Type")),
      redirectURL: entry.redirects.last?.location ?? "", bodySize: entry.responseBody?.count ?? 0)
    return Entry(
      startedDateTime: ISO8601DateFormatter().string(from: entry.startedAt), time: milliseconds,
      request: request, response: response,
      timings: ["send": 0, "wait": milliseconds, "receive": 0])
  }

  private static func nameValue(_ header: InspectorEntry.Header) -> NameValue {
    NameValue(name: header.name, value: header.value)
  }

  /// Text bodies as text; anything else base64-encoded, as HAR allows.
  private static func content(_ body: Data, mimeType: String?) -> Content {
    if let text = String(data: body, encoding: .utf8) {
      return Content(size: body.count, mimeType: mimeType ?? "", text: text, encoding: nil)
    }
    return Content(
      size: body.count, mimeType: mimeType ?? "", text: body.base64EncodedString(), encoding: "base64")
  }
}

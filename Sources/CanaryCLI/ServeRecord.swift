import CanaryTrap
import Foundation

/// What `canary serve` writes when it stops: every request received and which request-side
/// canaries arrived.
struct ServeRecord: Encodable {
  struct Field: Encodable {
    var name: String
    var value: String
  }

  struct Request: Encodable {
    var sequence: Int
    var connectionID: Int
    var method: String
    var target: String
    var path: String
    var query: String?
    var version: String
    var headers: [Field]
    var trailers: [Field]
    /// The body decoded as UTF-8 (lossily); `bodyBase64` has the exact bytes.
    var body: String
    var bodyBase64: String
    /// The exact bytes received, base64-encoded.
    var rawBase64: String
    var malformed: String?
    var receivedAt: String
  }

  /// A canary and where it travelled: for a request-side canary, the requests that carried it;
  /// for a response-side one, the requests whose fully written answers carried it.
  struct CanarySighting: Encodable {
    var value: String
    var location: String
    var seen: Bool
    /// The sequence numbers of those requests.
    var requests: [Int]
  }

  var baseURL: String
  var requests: [Request]
  var requestCanaries: [CanarySighting]
  var responseCanaries: [CanarySighting]

  init(baseURL: URL, requests recorded: [RecordedRequest], responses: [SentResponse], canaries: [Canary]) {
    self.baseURL = baseURL.absoluteString
    let dates = ISO8601DateFormatter()
    dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    requests = recorded.map { request in
      Request(
        sequence: request.sequence, connectionID: request.connectionID, method: request.method,
        target: request.target, path: request.path, query: request.query, version: request.version,
        headers: request.headers.map { Field(name: $0.name, value: $0.value) },
        trailers: request.trailers.map { Field(name: $0.name, value: $0.value) }, body: request.bodyText,
        bodyBase64: request.body.base64EncodedString(), rawBase64: request.raw.base64EncodedString(),
        malformed: request.malformed, receivedAt: dates.string(from: request.receivedAt))
    }
    let views = recorded.map { ($0.sequence, Self.searchableViews(of: $0)) }
    requestCanaries = canaries.filter(\.location.isRequestSide).map { canary in
      let hits = views.filter { $0.1.contains { $0.contains(canary.value) } }.map(\.0)
      return CanarySighting(
        value: canary.value, location: canary.location.description, seen: !hits.isEmpty, requests: hits)
    }
    let sent = responses.filter(\.fullyWritten).map {
      ($0.requestSequence, String(decoding: $0.bytes, as: UTF8.self))
    }
    responseCanaries = canaries.filter { !$0.location.isRequestSide }.map { canary in
      let forms = [
        canary.value, canary.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "",
      ]
      let hits = sent.filter { response in forms.contains { !$0.isEmpty && response.1.contains($0) } }.map(
        \.0)
      return CanarySighting(
        value: canary.value, location: canary.location.description, seen: !hits.isEmpty, requests: hits)
    }
  }

  /// The request as text in the forms a planted value can take on the wire: raw, percent- and
  /// form-decoded, and with the Basic credentials of `Authorization` and `Proxy-Authorization` decoded.
  static func searchableViews(of request: RecordedRequest) -> [String] {
    let raw = String(decoding: request.raw, as: UTF8.self)
    var views = [raw]
    if let decoded = raw.removingPercentEncoding { views.append(decoded) }
    if let formDecoded = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding {
      views.append(formDecoded)
    }
    let credentials = ["Authorization", "Proxy-Authorization"].flatMap { request.headers.values(for: $0) }
    for value in credentials where value.lowercased().hasPrefix("basic ") {
      if let data = Data(base64Encoded: String(value.dropFirst(6)).trimmingCharacters(in: .whitespaces)) {
        views.append(String(decoding: data, as: UTF8.self))
      }
    }
    return views
  }

  func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}

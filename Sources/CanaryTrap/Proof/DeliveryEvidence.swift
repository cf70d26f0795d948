import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Everything a run produced that can prove a canary travelled: what the loopback server
/// received and answered, what was handed to the transport, and what the transport handed back.
package struct DeliveryEvidence: Sendable {
  /// Every request the scope's loopback server recorded, in arrival order.
  package var received: [RecordedRequest] {
    didSet { inspections = received.map(RequestInspection.init) }
  }
  /// ``received``, decoded once for the proof, which asks every request about every canary.
  private(set) var inspections: [RequestInspection]
  /// Every request handed to the transport under test.
  package var sent: [SentRequest] {
    didSet { handedOverCache = Locked(nil) }
  }
  /// ``handedOver``, once built.
  private var handedOverCache = Locked<DeliveryEvidence?>(nil)
  /// Every response the transport under test returned.
  package var returned: [ObservedResponse]
  /// Every response the loopback server wrote, with whether it wrote every byte.
  package var answered: [SentResponse]
  /// Every WebSocket connection the loopback server accepted, with what each side sent.
  package var webSockets: [WebSocketRecord]

  /// Creates evidence from its parts.
  package init(
    received: [RecordedRequest], sent: [SentRequest], returned: [ObservedResponse],
    answered: [SentResponse] = [], webSockets: [WebSocketRecord] = []
  ) {
    self.webSockets = webSockets
    self.received = received
    self.inspections = received.map(RequestInspection.init)
    self.sent = sent
    self.returned = returned
    self.answered = answered
  }

  /// The requests handed to the transport as a server would have received them (see
  /// ``SentRequest/asReceived``), built once: a failed exchange's proof asks them about each of
  /// its canaries.
  var handedOver: DeliveryEvidence {
    handedOverCache.withLock { cached in
      if let cached { return cached }
      let built = DeliveryEvidence(received: sent.map(\.asReceived), sent: sent, returned: [])
      cached = built
      return built
    }
  }
}

/// A request as it was handed to the transport under test (before the transport touched it).
package struct SentRequest: Sendable, Hashable {
  /// The request's URL, fragment and userinfo included.
  package var url: URL?
  /// The request's method.
  package var method: String
  /// The request's header fields.
  package var headers: [String: String]
  /// The request's body, when it was given as bytes (`httpBody`; a body stream is not read).
  package var body: Data?

  /// Captures the parts of `request` that delivery proof reads.
  package init(_ request: URLRequest) {
    url = request.url
    method = request.httpMethod ?? "GET"
    headers = request.allHTTPHeaderFields ?? [:]
    body = request.httpBody
  }
}

/// A response as the transport under test returned it to the app.
package struct ObservedResponse: Sendable, Hashable {
  /// The URL the transport ended on, after following redirects.
  package var url: URL?
  /// The HTTP status code, or 0 when the response was not HTTP.
  package var statusCode: Int
  /// Every header field, as the transport exposed them.
  package var headers: [String: String]
  /// The body bytes the transport returned.
  package var body: Data

  /// Captures a transport's result.
  package init(data: Data, response: URLResponse) {
    url = response.url
    body = data
    if let http = response as? HTTPURLResponse {
      statusCode = http.statusCode
      var fields: [String: String] = [:]
      for (key, value) in http.allHeaderFields {
        fields[String(describing: key)] = String(describing: value)
      }
      headers = fields
    } else {
      statusCode = 0
      headers = [:]
    }
  }

  /// The values of the header `name`, compared case-insensitively.
  package func headerValues(_ name: String) -> [String] {
    headers.filter { $0.key.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
  }
}

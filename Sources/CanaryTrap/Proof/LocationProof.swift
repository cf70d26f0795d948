import CanaryTrapPrimitives
import Foundation

/// Proves delivery of a canary at its own ``CanaryLocation``.
enum LocationProof {
  static func status(of canary: Canary, in evidence: DeliveryEvidence) -> CanaryDelivery.Status {
    let value = canary.value
    let received = evidence.inspections
    func seen(_ found: (RequestInspection) -> Bool, dropped what: String, because: String? = nil)
      -> CanaryDelivery.Status
    {
      if received.contains(where: found) { return .delivered }
      if received.isEmpty { return .undelivered(reason: "the server received no request at all") }
      return .undelivered(
        reason: "the server never received it in \(what) (\(because ?? "the transport dropped \(what)"))")
    }
    switch canary.location {
    case .requestURL(let part):
      if part == .fragment {
        return DeliveryProof.handedToTransport.check(canary, evidence) == .delivered
          ? .delivered
          : .undelivered(
            reason: "a fragment never leaves the client, and no request handed to the transport carried it")
      }
      if part == .user || part == .password {
        return seen(
          { urlPart(part, in: $0, is: value) }, dropped: describe(part),
          because: UserinfoEvidence(evidence).whyMissing)
      }
      return seen(
        { urlPart(part, in: $0, is: value) }, dropped: describe(part),
        because: changedInTarget(value, in: received))
    case .requestCredential(let header, let part):
      let carrying = received.filter { !$0.request.headers.values(for: header).isEmpty }
      return seen(
        { $0.basicCredentials(in: header)?[part] == value },
        dropped: "the Basic \(part.rawValue) of header \(header)",
        because: carrying.isEmpty
          ? "the transport dropped header \(header)"
          : "header \(header) arrived, but not with it as its Basic \(part.rawValue)")
    case .requestHeader(let name):
      return seen(
        { $0.request.headers.values(for: name).contains { $0.contains(value) } }, dropped: "header \(name)")
    case .requestCookie(let name):
      let sentNames = Set(received.flatMap { $0.cookies.map(\.name) }).sorted()
      let replaced =
        sentNames.isEmpty ? nil : "cookies the server did receive: \(sentNames.joined(separator: ", "))"
      return seen(
        { $0.cookies.contains { $0 == (name, value) } }, dropped: "cookie \(name)",
        because: "the transport dropped cookie \(name)" + (replaced.map { "; \($0)" } ?? ""))
    case .requestBody(let part):
      return seen({ bodyPart(part, ofRequest: $0, is: value) }, dropped: "the body's \(part)")
    case .redirect(let hop, let part):
      // A transport with redirects off hands the 3xx to the app: its Location arrived all the same.
      if evidence.returned.contains(where: { locationPart(part, of: $0, is: value) }) { return .delivered }
      return seen(
        { urlPart(part, in: $0, is: value) },
        dropped: "\(describe(part)) of the request following redirect \(hop)",
        because:
          "the transport neither followed redirect \(hop) nor returned its Location to the app, or changed it"
      )
    case .responseHeader, .responseCookie, .responseBody, .finalURL, .responseLocation, .informationalHeader,
      .responseTrailer:
      return responseStatus(of: canary, in: evidence)
    case .clientHeld:
      return HeldSecretProof.status(of: canary, in: evidence)
    case .webSocket(let part):
      return WebSocketProof.status(of: part, value: value, in: evidence)
    case .failedExchange(let failure, let location):
      var inner = canary
      inner.location = location
      return FailedExchangeProof.status(of: inner, failure: failure, in: evidence)
    case .custom:
      let anywhere = evidence.received.contains { request in
        request.target.contains(value) || String(decoding: request.body, as: UTF8.self).contains(value)
          || request.headers.contains { $0.value.contains(value) }
      }
      return anywhere ? .delivered : .undelivered(reason: "the server never received it anywhere")
    }
  }

  private static func responseStatus(of canary: Canary, in evidence: DeliveryEvidence)
    -> CanaryDelivery.Status
  {
    let value = canary.value
    let returned = evidence.returned
    if returned.isEmpty {
      // Outside the matrix the scope may not see the app's responses: a response the server
      // wrote in full with the canary in it is the proof then (see ``CanaryTrap/observe(_:_:)``
      // for the stricter one).
      if evidence.received.isEmpty {
        return .undelivered(reason: "the server received no request, so no response carried it")
      }
      let carriers = evidence.answered.filter { $0.contains(value) }
      if carriers.contains(where: \.fullyWritten) { return .delivered }
      return carriers.isEmpty
        ? .undelivered(reason: "the server never sent a response carrying it")
        : .undelivered(reason: "the server's response carrying it was cut off before its last byte")
    }
    /// Whether a returned response holds the canary in a header field `name` (where a transport
    /// that exposes informational responses or trailers puts their fields).
    func returnedAmongHeaders(_ name: String) -> Bool {
      returned.contains { response in response.headerValues(name).contains { $0.contains(value) } }
    }
    let found: Bool
    let what: String
    switch canary.location {
    case .responseHeader(let name):
      found = returned.contains { $0.headerValues(name).contains { $0.contains(value) } }
      what = "header \(name)"
    case .informationalHeader(let status, let name):
      // No URLSession hands the app a 1xx response: a transport that does shows it among the
      // headers it returned.
      found = returnedAmongHeaders(name)
      what = "header \(name) of the \(status) response (no \(status) response reached the app)"
    case .responseTrailer(let name):
      found = returnedAmongHeaders(name)
      what = "trailer \(name) (the body's trailers never reached the app)"
    case .responseCookie(let name):
      found =
        returned.contains { $0.headerValues("Set-Cookie").contains { $0.contains("\(name)=\(value)") } }
        || evidence.inspections.contains { $0.cookies.contains { $0 == (name, value) } }
      what = "Set-Cookie \(name)"
    case .responseBody(let part):
      found = returned.contains {
        bodyPart(part, of: $0.body, contentType: $0.headerValues("Content-Type").first, is: value)
      }
      what = "the body's \(part)"
    case .responseLocation(let part):
      found =
        returned.contains { locationPart(part, of: $0, is: value) }
        || received(evidence).contains { urlPart(part, in: $0, is: value) }
      what = "the Location's \(describe(part))"
    case .finalURL(let part):
      found = returned.contains { response in
        guard let url = response.url else { return false }
        return finalURLPart(part, of: url, is: value)
      }
      what = "the final URL's \(describe(part))"
    default:
      return .undelivered(reason: "not a response-side location")
    }
    return found
      ? .delivered : .undelivered(reason: "the transport never returned it in \(what)")
  }

  private static func received(_ evidence: DeliveryEvidence) -> [RequestInspection] {
    evidence.inspections
  }

  /// Whether the `Location` header of `response`, resolved against its URL, holds `value` at `part`.
  static func locationPart(_ part: CanaryLocation.URLPart, of response: ObservedResponse, is value: String)
    -> Bool
  {
    response.headerValues("Location").contains { location in
      guard let url = URL(string: location, relativeTo: response.url)?.absoluteURL else { return false }
      return finalURLPart(part, of: url, is: value)
    }
  }

  /// What the server received instead when a canary arrived elsewhere or changed in a request's
  /// target, such as `;session=` sent as `items%3Bsession=<canary>`: the piece of the target that
  /// holds it, the canary written `<canary>`, or nil when no target holds it.
  static func changedInTarget(_ value: String, in received: [RequestInspection]) -> String? {
    for inspection in received {
      let target = inspection.request.target
      guard target.contains(value) else { continue }
      let piece =
        target.split(whereSeparator: { "/?&".contains($0) }).first { $0.contains(value) }.map(String.init)
        ?? target
      let received = piece.replacingOccurrences(of: value, with: "<canary>")
      return "the server received it elsewhere in the request's target, as \"\(received)\""
    }
    return nil
  }

  static func urlPart(_ part: CanaryLocation.URLPart, in request: RequestInspection, is value: String) -> Bool
  {
    switch part {
    case .user: request.basicCredentials(in: "Authorization")?.user == value
    case .password: request.basicCredentials(in: "Authorization")?.password == value
    case .path(let index):
      request.pathSegments.indices.contains(index) && request.pathSegments[index] == value
    case .pathParameter(let name): request.pathParameters.contains { $0 == (name, value) }
    case .query(let name): request.queryItems.contains { $0 == (name, value) }
    case .fragment: request.request.target.contains(value)
    }
  }

  static func bodyPart(
    _ part: CanaryLocation.BodyPart, ofRequest request: RequestInspection, is value: String
  )
    -> Bool
  {
    switch part {
    case .form(let name): return request.formFields.contains { $0 == (name, value) }
    case .multipartField(let name):
      return request.multipartParts.contains {
        $0.name == name && $0.filename == nil && $0.body == Data(value.utf8)
      }
    case .multipartFile(let name):
      return request.multipartParts.contains {
        $0.name == name && $0.filename != nil && $0.body.range(of: Data(value.utf8)) != nil
      }
    case .multipartFilename(let name):
      return request.multipartParts.contains { $0.name == name && $0.filename == value }
    case .json(let path):
      return request.json.flatMap { JSONPathLookup.value(at: path, inParsed: $0.root) } == value
    default:
      return bodyPart(part, of: request.request.body, contentType: request.contentType, is: value)
    }
  }

  static func bodyPart(_ part: CanaryLocation.BodyPart, of body: Data, contentType: String?, is value: String)
    -> Bool
  {
    switch part {
    case .json(let path): return JSONPathLookup.value(at: path, in: body) == value
    case .xml(let path): return XMLPathLookup.values(at: path, in: Array(body)).contains(value)
    case .form(let name):
      return PercentDecoding.pairs(String(decoding: body, as: UTF8.self), plusIsSpace: true).contains {
        $0 == (name, value)
      }
    case .multipartField, .multipartFile, .multipartFilename:
      let parts = MultipartBody(contentType: contentType ?? "", body: body)?.parts ?? []
      return parts.contains { $0.body.range(of: Data(value.utf8)) != nil || $0.filename == value }
    case .text: return body.range(of: Data(value.utf8)) != nil
    case .event(let index, let field):
      let events = EventStreamReader.events(in: body)
      return events.indices.contains(index - 1) && events[index - 1].field(field).contains(value)
    }
  }

  static func finalURLPart(_ part: CanaryLocation.URLPart, of url: URL, is value: String) -> Bool {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    switch part {
    case .user: return components?.user == value
    case .password: return components?.password == value
    case .fragment: return components?.fragment == value
    case .query(let name):
      return components?.queryItems?.contains { $0.name == name && $0.value == value } ?? false
    case .path(let index):
      let segments = (components?.path ?? "").split(separator: "/", omittingEmptySubsequences: false)
        .dropFirst()
        .map { String($0.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
      return segments.indices.contains(index) && segments[index] == value
    case .pathParameter(let name): return (components?.path ?? "").contains(";\(name)=\(value)")
    }
  }

  static func describe(_ part: CanaryLocation.URLPart) -> String {
    switch part {
    case .user: "the URL user name (as Authorization: Basic)"
    case .password: "the URL password (as Authorization: Basic)"
    case .path(let index): "path segment \(index)"
    case .pathParameter(let name): "path parameter ;\(name)="
    case .query(let name): "query item \(name)"
    case .fragment: "the fragment"
    }
  }
}

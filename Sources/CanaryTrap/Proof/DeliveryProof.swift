/// How a run proves that one planted canary travelled: a check over the run's evidence.
///
/// The default, ``atLocation``, reads the canary's ``CanaryLocation``: a request-side canary must
/// reach the server at that exact place (the header, the query item, the JSON path…), a
/// response-side one must come back from the transport there (a header, the body, the final URL),
/// and a redirect `Location` canary must show up in the request that followed the redirect.
public struct DeliveryProof: Sendable {
  /// The check: the canary's delivery status given what the run produced.
  package let check: @Sendable (Canary, DeliveryEvidence) -> CanaryDelivery.Status

  /// Creates a proof from a check.
  package init(_ check: @escaping @Sendable (Canary, DeliveryEvidence) -> CanaryDelivery.Status) {
    self.check = check
  }

  /// Proves delivery at the canary's own location (see ``DeliveryProof``).
  public static let atLocation = DeliveryProof { canary, evidence in
    LocationProof.status(of: canary, in: evidence)
  }

  /// Proves that the canary was handed to the transport inside a request URL; for a fragment,
  /// which by design never leaves the client, this is all that can be proven.
  public static let handedToTransport = DeliveryProof { canary, evidence in
    let handed = evidence.sent.contains { $0.url?.absoluteString.contains(canary.value) == true }
    return handed
      ? .delivered
      : .undelivered(reason: "no request handed to the transport carried it in its URL")
  }

  /// Proves that a ``CanaryLocation/responseCookie(_:)`` canary went the whole way through the
  /// app's cookie store: the app received it in `Set-Cookie`, and a later request brought it back
  /// in its `Cookie` header (``CanaryLocation/resentAs``) although the app was handed no request
  /// carrying it. An app without a cookie store leaves it undelivered, saying so.
  public static let resentByCookieStore = DeliveryProof { canary, evidence in
    guard case .responseCookie(let name) = canary.location else {
      return .undelivered(reason: "only a response cookie can be re-sent by a cookie store")
    }
    let value = canary.value
    if evidence.sent.contains(where: { $0.headers.contains { $0.value.contains(value) } }) {
      return .undelivered(
        reason:
          "a request handed to the transport already carried it, so its re-send by a cookie store is unproven"
      )
    }
    let resent = evidence.inspections.contains { $0.cookies.contains { $0 == (name, value) } }
    if resent { return .delivered }
    if evidence.received.isEmpty { return .undelivered(reason: "the server received no request at all") }
    let setCookie = evidence.returned.contains {
      $0.headerValues("Set-Cookie").contains { $0.contains("\(name)=\(value)") }
    }
    return .undelivered(
      reason: setCookie
        ? "the app received it in Set-Cookie \(name), but no later request sent it back in request.cookie[\(name)] (the transport keeps no cookies: no cookie storage, or httpShouldSetCookies off)"
        : "the transport never returned it in Set-Cookie \(name), and no request sent it back")
  }

  /// Delivered when any of `proofs` proves it; otherwise the first proof's reason.
  public static func anyOf(_ proofs: [DeliveryProof]) -> DeliveryProof {
    DeliveryProof { canary, evidence in
      var firstFailure: CanaryDelivery.Status?
      for proof in proofs {
        let status = proof.check(canary, evidence)
        if status == .delivered { return .delivered }
        if firstFailure == nil { firstFailure = status }
      }
      return firstFailure ?? .undelivered(reason: "no proof was given")
    }
  }
}

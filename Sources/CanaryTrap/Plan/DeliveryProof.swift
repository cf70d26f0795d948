/// How a run proves that one planted canary travelled: a check over the run's evidence.
///
/// The default, ``atLocation``, reads the canary's ``CanaryLocation``: a request-side canary must
/// reach the server at that exact place (the header, the query item, the JSON path…), a
/// response-side one must come back from the transport there (a header, the body, the final URL),
/// and a redirect `Location` canary must show up in the request that followed the redirect.
public struct DeliveryProof: Sendable {
  /// The check: the canary's delivery status given what the run produced.
  public let check: @Sendable (Canary, DeliveryEvidence) -> CanaryDelivery.Status

  /// Creates a proof from a check.
  public init(_ check: @escaping @Sendable (Canary, DeliveryEvidence) -> CanaryDelivery.Status) {
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

import Foundation

/// Proves a ``CanaryLocation/clientHeld(_:)`` canary: a secret the client holds must never travel,
/// so the proof is its absence from every request the server received (in any encoding the
/// scanner knows), given that the server did receive requests.
///
/// A held secret found on the wire is also a leak: ``wireFindings(of:in:options:)`` reports it in
/// the source ``wireSource``.
enum HeldSecretProof {
  /// The source name of findings in the requests the server received.
  static let wireSource = "wire"

  static func status(of canary: Canary, in evidence: DeliveryEvidence) -> CanaryDelivery.Status {
    if evidence.received.isEmpty {
      return .undelivered(
        reason: "the server received no request, so its absence from the wire proves nothing")
    }
    let scanner = LeakScanner(canaries: [canary])
    if let carrier = evidence.received.first(where: {
      !scanner.scan(wireBytes(of: $0), source: wireSource).isEmpty
    }) {
      return .undelivered(
        reason:
          "the client sent it to the server (\(carrier.method) \(carrier.path)), which a held secret must never do: reported as a leak in source \(wireSource)"
      )
    }
    return .delivered
  }

  /// Findings of every held canary of `canaries` in the bytes of `requests`, in source ``wireSource``.
  static func wireFindings(of canaries: [Canary], in requests: [RecordedRequest], options: ScanOptions)
    -> [LeakFinding]
  {
    let held = canaries.filter {
      if case .clientHeld = $0.location { return true }
      return false
    }
    guard !held.isEmpty, !requests.isEmpty else { return [] }
    var wire = Data()
    for request in requests { wire.append(wireBytes(of: request)) }
    return LeakScanner(canaries: held, options: options).scan(wire, source: wireSource)
  }

  /// The bytes the request arrived as; rebuilt from its parts when the server kept no raw copy.
  static func wireBytes(of request: RecordedRequest) -> Data {
    if !request.raw.isEmpty { return request.raw }
    var head = "\(request.method) \(request.target) \(request.version)\r\n"
    for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
    var bytes = Data((head + "\r\n").utf8)
    bytes.append(request.body)
    return bytes
  }
}

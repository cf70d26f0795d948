import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A refused exchange is proven from the requests handed to the transport, read once per evidence:
/// changing what was sent must change the proof, and leave a copy taken before alone.
@Suite("Delivery proof of a refused exchange from the requests handed over")
struct HandedOverEvidenceTests {
  private let canary = Canary(
    value: "cnryHANDEDover0123456789",
    location: .failedExchange(.connectionRefused, .requestHeader("X-Api-Key")))

  private func sent(header value: String) throws -> SentRequest {
    var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/refused")))
    request.setValue(value, forHTTPHeaderField: "X-Api-Key")
    return SentRequest(request)
  }

  @Test("proven once the handed-over request carries it, after an earlier proof without it")
  func provenAfterSentChanges() throws {
    var evidence = DeliveryEvidence(received: [], sent: [try sent(header: "other")], returned: [])
    let before = evidence
    #expect(DeliveryProof.atLocation.check(canary, evidence) != .delivered)
    evidence.sent = [try sent(header: canary.value)]
    #expect(DeliveryProof.atLocation.check(canary, evidence) == .delivered)
    #expect(DeliveryProof.atLocation.check(canary, before) != .delivered)
  }

  @Test("twin: a handed-over request that lost it is no longer proof")
  func unprovenAfterSentChanges() throws {
    var evidence = DeliveryEvidence(received: [], sent: [try sent(header: canary.value)], returned: [])
    #expect(DeliveryProof.atLocation.check(canary, evidence) == .delivered)
    evidence.sent = [try sent(header: "other")]
    #expect(DeliveryProof.atLocation.check(canary, evidence) != .delivered)
  }
}

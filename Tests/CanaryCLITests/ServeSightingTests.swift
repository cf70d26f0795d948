import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

@Suite("canary serve: which request canaries a request holds")
struct ServeSightingTests {
  private static let canary = "cnry-Pct-Binary01"

  /// A request whose target carries `query` and whose body is `body`.
  private func request(query: String, body: [UInt8]) -> RecordedRequest {
    let head = "POST /upload?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n"
    return RecordedRequest(
      method: "POST", target: "/upload?\(query)", body: Data(body), raw: Data(head.utf8) + Data(body))
  }

  @Test(
    "a percent-encoded canary is seen though a bad escape or non-UTF-8 bytes are elsewhere in the request")
  func percentEncodedCanaryBesideBinaryBytes() {
    let binary: [UInt8] = Array("%zz %FF ".utf8) + [0xFF, 0xFE, 0x00, 0xC3]
    let leaky = request(query: "k=cnry%2DPct%2DBinary01", body: binary)
    #expect(ServeRecord.canariesFound(in: leaky, among: [Self.canary]) == [0])
    let formEncoded = request(query: "k=x", body: Array("note=cnry%2DPct%2DBinary01+sent&".utf8) + binary)
    #expect(ServeRecord.canariesFound(in: formEncoded, among: [Self.canary]) == [0])
  }

  @Test("the twin: the same bytes without the canary see nothing")
  func sameBytesWithoutTheCanary() {
    let binary: [UInt8] = Array("%zz %FF ".utf8) + [0xFF, 0xFE, 0x00, 0xC3]
    let clean = request(query: "k=cnry%2DPct%2DBinary02", body: binary)
    #expect(ServeRecord.canariesFound(in: clean, among: [Self.canary]).isEmpty)
  }
}

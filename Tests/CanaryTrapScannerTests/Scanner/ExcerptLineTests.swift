import Foundation
import Testing

@testable import CanaryTrapScanner

/// Excerpts stop at line breaks, so the bytes of a neighbouring line (another secret) never
/// reach a report.
@Suite struct ExcerptLineTests {
  static let token = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))

  @Test(arguments: ["\n", "\r\n", "\r"])
  func anExcerptNeverCarriesTheNeighbouringLines(separator: String) throws {
    let text =
      "password=hunter2-SECRET-19-bytes" + separator + "k=\(Self.token.value);" + separator
      + "AFTER-secret-xyz"
    let found = LeakScanner(canaries: [Self.token]).scan(Data(text.utf8), source: "s")
    let finding = try #require(found.first)
    #expect(finding.excerpt == "k=\(Self.token.value);")
    #expect(finding.line == (separator == "\r" ? 1 : 2))
  }

  @Test func onOneLineTheRadiusStillApplies() throws {
    // Twin: without line breaks, the context on both sides is shown up to the radius.
    let text = "0123456789ABCDEFGHIJ-before-\(Self.token.value)-after-0123456789ABCDEFGHIJ"
    let finding = try #require(LeakScanner(canaries: [Self.token]).scan(Data(text.utf8), source: "s").first)
    #expect(finding.excerpt == "89ABCDEFGHIJ-before-\(Self.token.value)-after-0123456789ABC")
    #expect(finding.excerpt.contains("-before-") && finding.excerpt.contains("-after-"))
    #expect(finding.excerpt.utf8.count == Self.token.value.utf8.count + 40)
  }
}

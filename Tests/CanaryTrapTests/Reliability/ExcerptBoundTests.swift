import CanaryTrap
import Foundation
import Testing

/// Scanning a real log must not copy its other secrets into CI artifacts: every report format
/// shows at most the configured number of bytes on each side of a finding.
@Suite("Excerpt bounds in every report format")
struct ExcerptBoundTests {
  /// A random secret of the app's own, in an alphabet no report wording uses.
  static func otherSecret(_ tag: String) -> String {
    tag + "Q" + String((0..<28).map { _ in "QWXZJK".randomElement()! })
  }

  @Test("context beyond the radius never reaches a report", arguments: [20, 8])
  func contextBeyondTheRadiusStaysOut(radius: Int) throws {
    let canary = Canary(value: "cnryExcerptBound0042", location: .requestHeader("X-Session"))
    let before = Self.otherSecret("LEFT")
    let after = Self.otherSecret("RIGHT")
    let nearBefore = String("abcdefghijklmnopqrstuvwxyz".prefix(radius))
    let nearAfter = String("0123456789-=_.,:;!@$^*()~".prefix(radius))
    let base64 = Data(canary.value.utf8).base64EncodedString()
    let log = """
      token \(before)\(nearBefore)\(canary.value)\(nearAfter)\(after) end
      \(before)\(nearBefore)\(base64)\(nearAfter)\(after)
      """
    var options = ScanOptions()
    options.excerptRadius = radius
    let findings = LeakScanner(canaries: [canary], options: options).scan(Data(log.utf8), source: "app.log")
    #expect(findings.map(\.encoding) == ["raw", "base64"])
    let report = LeakReport(
      title: "excerpts", canaries: [canary], findings: findings,
      sources: [ScannedSource(name: "app.log", bytes: log.utf8.count)],
      deliveries: [CanaryDelivery(canary: canary, status: .delivered)])
    for format in ReportFormat.allCases {
      let text = String(decoding: report.rendered(as: format), as: UTF8.self)
      // The twin: the context inside the radius is shown, so the check below is not vacuous.
      #expect(text.contains(nearBefore) && text.contains(nearAfter), "\(format) shows no context")
      for secret in [before, after] {
        let pieces = Self.pieces(of: secret, length: 5)
        let shown = pieces.filter { text.contains($0) }
        #expect(shown.isEmpty, "\(format) shows bytes beyond the excerpt radius: \(shown)")
      }
    }
  }

  @Test("an excerpt near the start or end of a source stays within the source")
  func excerptAtTheEdges() {
    let canary = Canary(value: "cnryExcerptEdge00099", location: .custom("edge"))
    let findings = LeakScanner(canaries: [canary]).scan(Data("\(canary.value)xy".utf8), source: "s")
    #expect(findings.map(\.excerpt) == ["\(canary.value)xy"])
  }

  /// Every run of `length` consecutive characters of `text`.
  static func pieces(of text: String, length: Int) -> [String] {
    let characters = Array(text)
    return (0...(characters.count - length)).map { String(characters[$0..<$0 + length]) }
  }
}

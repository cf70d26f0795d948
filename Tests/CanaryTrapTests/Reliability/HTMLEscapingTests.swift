import CanaryTrap
import Foundation
import Testing

/// The HTML report escapes everything it shows: canary values and locations, source names,
/// excerpts, titles, reasons and errors can all carry markup from the app under test.
@Suite("HTML report escaping")
struct HTMLEscapingTests {
  static let script = "<script>alert(1)</script>"
  static let attributeBreak = #"x" onmouseover="alert(2)"#
  static let image = "<img src=x onerror=alert(3)>"

  @Test("markup in every field of a report is shown as text, never as markup")
  func everyFieldIsEscaped() throws {
    let canary = Canary(
      value: "cnry<script>alert('v')</script>", location: .custom("header[\(Self.script)]"))
    let other = Canary(value: "cnry\(Self.attributeBreak)", location: .requestHeader("X-\(Self.image)"))
    let log = "line one \(Self.script) \(canary.value) \(Self.image)\n"
    let findings = LeakScanner(canaries: [canary]).scan(Data(log.utf8), source: "logs/\(Self.image).log")
    #expect(findings.count == 1)
    #expect(findings.first?.excerpt.contains("<script>") == true, "the excerpt itself holds markup")
    let report = LeakReport(
      title: "title \(Self.script)", canaries: [canary, other], findings: findings,
      sources: [
        ScannedSource(name: "logs/\(Self.image).log", bytes: log.utf8.count),
        ScannedSource(name: "sink \(Self.attributeBreak)", bytes: 0, status: .silent(reason: Self.script)),
        ScannedSource(name: "broken", bytes: 0, status: .failed(reason: Self.image)),
      ],
      deliveries: [
        CanaryDelivery(canary: canary, status: .delivered),
        CanaryDelivery(canary: other, status: .undelivered(reason: "reason \(Self.image)")),
      ],
      errors: ["error \(Self.script) \(Self.attributeBreak)"],
      sourceLocation: ReportSourceLocation(
        fileID: "App/<b>Tests</b>.swift", filePath: "/tmp/<b>Tests</b>.swift", line: 1, column: 1))
    let html = String(decoding: report.rendered(as: .html), as: UTF8.self)
    let lowered = html.lowercased()
    for markup in ["<script", "<img", "<b>", "onmouseover=\"", "alert('v')"] {
      #expect(!lowered.contains(markup), "unescaped \(markup) in the HTML report")
    }
    // The twin: the same strings are present, escaped, so nothing was simply dropped.
    for escaped in [
      "&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(3)&gt;",
      "x&quot; onmouseover=&quot;alert(2)", "alert(&#39;v&#39;)", "&lt;b&gt;Tests&lt;/b&gt;",
    ] {
      #expect(html.contains(escaped), "\(escaped) missing from the HTML report")
    }
    #expect(html.components(separatedBy: "<script").count == 1)
  }
}

import CanaryTrap
import Foundation
import Testing

/// Renders fixed reports and compares them byte for byte with the goldens in `Golden/`.
///
/// To re-record after an intended change, run with `CANARY_TRAP_RECORD_GOLDEN=1`; the test then
/// rewrites `Golden/*.swift` and fails so that the change is reviewed.
@Suite struct GoldenTests {
  static let cases: [(name: String, report: LeakReport, format: ReportFormat, golden: String)] = [
    ("leakyText", ReportFixtures.leaky, .text, Golden.leakyText),
    ("leakyJSON", ReportFixtures.leaky, .json, Golden.leakyJSON),
    ("leakyJUnit", ReportFixtures.leaky, .junit, Golden.leakyJUnit),
    ("leakySARIF", ReportFixtures.leaky, .sarif, Golden.leakySARIF),
    ("leakyHTML", ReportFixtures.leaky, .html, Golden.leakyHTML),
    ("inconclusiveJUnit", ReportFixtures.inconclusive, .junit, Golden.inconclusiveJUnit),
    ("scanSARIF", ReportFixtures.scan, .sarif, Golden.scanSARIF),
  ]

  @Test(arguments: 0..<cases.count)
  func renderingMatchesGolden(index: Int) throws {
    let testCase = Self.cases[index]
    var report = testCase.report
    report.run = ReportFixtures.run  // fixed time and host, so the JUnit goldens are stable
    let rendered = String(decoding: report.rendered(as: testCase.format), as: UTF8.self)
    if ProcessInfo.processInfo.environment["CANARY_TRAP_RECORD_GOLDEN"] == "1" {
      try Self.record(name: testCase.name, text: rendered)
      Issue.record("recorded golden \(testCase.name); unset CANARY_TRAP_RECORD_GOLDEN and rerun")
      return
    }
    #expect(rendered == testCase.golden, "\(testCase.name) differs from its golden")
  }

  private static func record(name: String, text: String) throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    precondition(!text.contains("\"\"\"##"), "golden text would end the raw string")
    let source = """
      // Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
      // swift-format-ignore-file

      extension Golden {
        static let \(name) = ##\"\"\"
      \(text)
      \"\"\"##
      }

      """
    try source.write(
      to: directory.appendingPathComponent("Golden+\(name).swift"), atomically: true,
      encoding: .utf8)
  }
}

/// Expected renderings of the fixtures, one file per golden.
enum Golden {}

import Foundation
import Testing

@testable import CanaryTrap

/// Every format streams: the pieces put together are the rendered report byte for byte, and a
/// report with many findings goes out in many bounded pieces, never as one document.
@Suite struct ReportStreamingTests {
  static let fixtures: [(name: String, report: LeakReport)] = [
    ("leaky", ReportFixtures.leaky), ("clean", ReportFixtures.clean),
    ("inconclusive", ReportFixtures.inconclusive), ("hostile", ReportFixtures.hostile),
    ("scan", ReportFixtures.scan), ("many", manyFindings),
  ]

  /// 2 canaries × 1,000 findings (a cap of 1,000), in a few sources: enough for many pieces.
  static let manyFindings: LeakReport = {
    var text = ""
    for index in 0..<1000 {
      text += "line \(index) token=\(FindingsCapTests.token.value) other=\(FindingsCapTests.other.value)\n"
    }
    let (found, source) = FindingsCapTests.scanner(cap: 1000).scan(
      SinkContent.bytes(Data(text.utf8), name: "many/app.log"))
    var report = LeakReport(
      title: "many", canaries: [FindingsCapTests.token, FindingsCapTests.other], findings: found,
      sources: [source])
    // A fixed run, so JUnit's timestamp is the same in both renderings.
    report.run = ReportRun(started: Date(timeIntervalSince1970: 1_800_000_000), seconds: 1.5, hostname: "ci")
    return report
  }()

  @Test(arguments: ReportFormat.allCases)
  func streamingWritesTheRenderedBytes(format: ReportFormat) throws {
    for (name, fixture) in Self.fixtures {
      // JUnit stamps a report without a run with the time it renders; a fixed run keeps the two
      // renderings from straddling a clock tick.
      var report = fixture
      report.run = report.run ?? ReportRun(started: Date(timeIntervalSince1970: 1_800_000_000), seconds: 0)
      var pieces: [Data] = []
      try report.streamRendering(as: format) { pieces.append($0) }
      #expect(pieces.reduce(Data(), +) == report.rendered(as: format), "\(format) \(name)")
    }
  }

  @Test(arguments: ReportFormat.allCases)
  func manyFindingsGoOutInBoundedPieces(format: ReportFormat) throws {
    let report = Self.manyFindings
    #expect(report.findings.count == 2000)
    var pieces: [Int] = []
    try report.streamRendering(as: format) { pieces.append($0.count) }
    let total = pieces.reduce(0, +)
    #expect(total > 2 * ReportTextSink.chunkSize, "\(format): the report is large enough to need pieces")
    #expect(pieces.count > 2, "\(format) came out in \(pieces.count) piece(s)")
    // A piece is one chunk plus at most one finding's text, or one finding (JSON, SARIF).
    let largest = pieces.max() ?? 0
    #expect(largest < ReportTextSink.chunkSize + 16_384, "\(format): a piece of \(largest) bytes")
  }

  @Test func aWriteFailureStopsTheStreamWithTheError() {
    struct Full: Error {}
    for format in ReportFormat.allCases {
      var calls = 0
      #expect(throws: Full.self, "\(format)") {
        try Self.manyFindings.streamRendering(as: format) { _ in
          calls += 1
          throw Full()
        }
      }
      #expect(calls == 1, "\(format) wrote on after a failed write")
    }
  }
}

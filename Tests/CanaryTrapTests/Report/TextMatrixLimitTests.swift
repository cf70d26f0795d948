import Foundation
import Testing

@testable import CanaryTrap

/// A matrix of many planted locations lists what leaked or went undelivered, and counts the rest.
@Suite struct TextMatrixLimitTests {
  private func report(canaries count: Int, leaking leaked: [Int], undelivered lost: [Int]) -> LeakReport {
    let canaries = (0..<count).map { index in
      Canary(
        value: "cnryTEXTbulk\(String(format: "%08d", index))", location: .requestHeader("X-Row-\(index)"))
    }
    let findings = leaked.map { index in
      LeakFinding(
        canary: canaries[index], encoding: "raw", source: "app.log", line: 1, column: 1, offset: 0,
        excerpt: canaries[index].value)
    }
    var deliveries = canaries.map { CanaryDelivery(canary: $0, status: .delivered) }
    for index in lost { deliveries[index].status = .undelivered(reason: "never sent") }
    return LeakReport(
      title: "bulk", canaries: canaries, findings: findings,
      sources: [ScannedSource(name: "app.log", bytes: 9)], deliveries: deliveries)
  }

  private func rowLines(_ report: LeakReport) -> [String] {
    String(decoding: report.rendered(as: .text), as: UTF8.self).split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("  request.header[X-Row-") }
  }

  @Test func pastItsFullSizeTheMatrixListsOnlyRowsThatLeakedOrWentUndelivered() {
    let report = report(canaries: LeakReport.textMatrixFullRows + 50, leaking: [120], undelivered: [7])
    let text = String(decoding: report.rendered(as: .text), as: UTF8.self)
    #expect(
      rowLines(report).map { $0.split(separator: " ").first.map(String.init) } == [
        "request.header[X-Row-7]", "request.header[X-Row-120]",
      ])
    #expect(text.contains("  (148 more planted locations not listed: found in no source, none undelivered)"))
  }

  @Test func aCleanLargeMatrixListsNoRowAndCountsThemAll() {
    let report = report(canaries: LeakReport.textMatrixFullRows + 1, leaking: [], undelivered: [])
    let text = String(decoding: report.rendered(as: .text), as: UTF8.self)
    #expect(rowLines(report).isEmpty)
    #expect(text.contains("  (101 planted locations not listed: found in no source, none undelivered)"))
  }

  @Test func atItsFullSizeTheMatrixListsEveryRow() {
    let report = report(canaries: LeakReport.textMatrixFullRows, leaking: [20], undelivered: [7])
    #expect(rowLines(report).count == LeakReport.textMatrixFullRows)
    #expect(!String(decoding: report.rendered(as: .text), as: UTF8.self).contains("not listed"))
  }

  @Test func rowsThatLeakedOrWentUndeliveredAreListedUpToALimitAndCounted() {
    let count = LeakReport.textListLimit + 200
    let report = report(canaries: count, leaking: [], undelivered: Array(0..<count))
    let text = String(decoding: report.rendered(as: .text), as: UTF8.self)
    // The matrix rows, then the undelivered list: each stops at the limit and counts the rest.
    #expect(rowLines(report).count == LeakReport.textListLimit)
    #expect(
      text.contains(
        "  (200 more locations that leaked or went undelivered not listed: see the findings and the JSON report)"
      ))
    #expect(
      text.split(separator: "\n").filter { $0.hasPrefix("  - request.header[X-Row-") }.count
        == LeakReport.textListLimit)
    #expect(text.contains("  (200 more not listed: see the JSON report)"))
    #expect(text.contains("Undelivered canaries (\(count)):"))
  }
}

import Foundation
import Testing

@testable import CanaryTrap

@Suite struct SARIFMergeTests {
  private func folder(with reports: [LeakReport]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-sarif-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (number, report) in reports.enumerated() {
      try report.rendered(as: .sarif).write(to: directory.appendingPathComponent("test\(number).sarif"))
    }
    return directory
  }

  @Test(arguments: ["leaky", "hostile", "inconclusive", "clean", "scan"])
  func everyFixtureMeetsTheChecker(fixture: String) throws {
    let report = try #require(ReportFixtures.named[fixture])
    let problems = SARIFChecker.violations(in: report.rendered(as: .sarif), singleRun: true)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func twoTestsMergeIntoOneRunWithEveryResult() throws {
    var second = ReportFixtures.leaky
    second.title = "OtherLeakTests.signIn()"
    let directory = try folder(with: [ReportFixtures.leaky, second, ReportFixtures.inconclusive])
    defer { try? FileManager.default.removeItem(at: directory) }

    let data = try SARIFMerge.merge(directory: directory, category: "canarytrap-linux")

    #expect(
      SARIFChecker.violations(in: data, singleRun: true).isEmpty,
      "\(SARIFChecker.violations(in: data, singleRun: true))")
    let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let runs = try #require(log["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    let results = try #require(runs[0]["results"] as? [[String: Any]])
    #expect(
      results.count == ReportFixtures.leaky.findings.count * 2 + ReportFixtures.inconclusive.findings.count)
    #expect((runs[0]["automationDetails"] as? [String: Any])?["id"] as? String == "canarytrap-linux/")
    #expect((runs[0]["properties"] as? [String: String])?["verdict"] == "leaky")
  }

  @Test func theCheckerCatchesTwoRunsAndMissingDriverFields() throws {
    let directory = try folder(with: [ReportFixtures.leaky, ReportFixtures.leaky])
    defer { try? FileManager.default.removeItem(at: directory) }
    // Two per-test files concatenated as two runs of one log: what code scanning now rejects.
    var runs: [Any] = []
    for name in ["test0.sarif", "test1.sarif"] {
      let data = try Data(contentsOf: directory.appendingPathComponent(name))
      let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      runs += try #require(log["runs"] as? [Any])
    }
    var first = try #require(runs[0] as? [String: Any])
    first["tool"] = ["driver": ["name": "CanaryTrap", "rules": []]]
    runs[0] = first
    let twoRuns = try JSONSerialization.data(withJSONObject: ["version": "2.1.0", "runs": runs])
    let problems = SARIFChecker.violations(in: twoRuns, singleRun: true)
    for expected in [
      "2 runs", "repeats category canarytrap", "tool.driver.version missing", "does not point at rule",
    ] + (SARIFChecker.informationURIRequired ? ["informationUri missing"] : []) {
      #expect(problems.contains { $0.contains(expected) }, "\(expected) not in \(problems)")
    }
  }

  @Test func anEmptyOrBadFolderIsAClearError() throws {
    let directory = try folder(with: [])
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(throws: SARIFMerge.Failure.self) { try SARIFMerge.merge(directory: directory) }
    try Data("{".utf8).write(to: directory.appendingPathComponent("broken.sarif"))
    do {
      _ = try SARIFMerge.merge(directory: directory)
      Issue.record("a broken file merged")
    } catch {
      #expect("\(error)".hasPrefix("broken.sarif is not a CanaryTrap SARIF log"))
    }
  }

  /// 50,000 results with one fingerprint: each gets its own, and each costs one insertion (every
  /// copy counted up from 1 before, N²/2 insertions: 53,498 such results took over 120 s).
  @Test func fiftyThousandIdenticalResultsMergeInLinearWork() throws {
    // First the count on 2,000 (2,001,000 insertions when every copy counts up from 1), required
    // before 50,000 copies are merged, so quadratic numbering fails here in a moment.
    var small = SARIFMerge.FingerprintNumbering()
    for _ in 0..<2_000 { _ = small.unique("canaryLeak/v1", "abc") }
    try #require(small.probes == 2_000)

    let single = try JSONDecoder().decode(SARIFLog.self, from: ReportFixtures.leaky.rendered(as: .sarif))
    var run = try #require(single.runs.first)
    let result = try #require(run.results.first)
    run.results = Array(repeating: result, count: 50_000)
    let merged = SARIFMerge.merged([SARIFLog(runs: [run])], category: "canarytrap", maxResults: 50_000)
    let results = try #require(merged.runs.first?.results)
    #expect(results.count == 50_000)
    // Under the default limit, the same log keeps 25,000 and counts the rest.
    let capped = try #require(SARIFMerge.merged([SARIFLog(runs: [run])], category: "canarytrap").runs.first)
    #expect(capped.results.count == SARIFMerge.maxMergedResults)
    #expect(capped.properties["resultsNotMerged"] == String(50_000 - SARIFMerge.maxMergedResults))
    for key in result.partialFingerprints.keys {
      #expect(Set(results.compactMap { $0.partialFingerprints[key] }).count == 50_000)
    }

    var numbering = SARIFMerge.FingerprintNumbering()
    let values = (0..<50_000).map { _ in numbering.unique("canaryLeak/v1", "abc") }
    #expect(numbering.probes == 50_000)
    #expect(values.first == "abc")
    #expect(values.last == "abc#50000")
  }

  /// The twin: a value that already ends in `#N` still never takes a number in use.
  @Test func numberedFingerprintsStayUniqueWhenAValueLooksNumbered() {
    var numbering = SARIFMerge.FingerprintNumbering()
    let values = ["v", "v", "v#2", "v", "v#2", "w"].map { numbering.unique("k", $0) }
    #expect(values == ["v", "v#2", "v#2#2", "v#3", "v#2#3", "w"])
    #expect(Set(values).count == values.count)
    // The same value under another key is another fingerprint.
    #expect(numbering.unique("other", "v") == "v")
  }

  /// Past the limit of results per merged run, results are counted, not kept, and the run says so.
  @Test func resultsPastTheLimitAreCountedNotKept() throws {
    let single = try JSONDecoder().decode(SARIFLog.self, from: ReportFixtures.leaky.rendered(as: .sarif))
    var run = try #require(single.runs.first)
    let result = try #require(run.results.first)
    run.results = Array(repeating: result, count: 30)
    let log = SARIFLog(runs: [run])
    let merged = try #require(SARIFMerge.merged([log, log], category: "c", maxResults: 50).runs.first)
    #expect(merged.results.count == 50)
    #expect(merged.properties["resultsNotMerged"] == "10")
    #expect(merged.properties["summary"]?.contains("60 leaks in 2 reports") == true)
    #expect(merged.properties["summary"]?.contains("10 results not merged (over 50)") == true)
    let notes = merged.invocations.flatMap { $0.toolExecutionNotifications ?? [] }
    #expect(notes.contains { $0.descriptor.id == "canary.merge.resultsNotMerged" && $0.level == "error" })
    // The twin: at the limit, nothing is dropped and nothing says so.
    let exact = try #require(SARIFMerge.merged([log, log], category: "c", maxResults: 60).runs.first)
    #expect(exact.results.count == 60)
    #expect(exact.properties["resultsNotMerged"] == nil)
  }
}

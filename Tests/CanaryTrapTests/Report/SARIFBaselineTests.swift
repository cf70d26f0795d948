import Foundation
import Testing

@testable import CanaryTrap

/// SARIF's `baselineState` (§3.27.24) when a baseline is in use, and the stale entries of a whole
/// test run found across its per-test reports.
@Suite struct SARIFBaselineTests {
  /// Accepts the session leak into app.log.
  static let session = KnownLeak(
    location: ReportFixtures.leaky.findings[0].canary.location, source: "app.log", reason: "ticket 42")
  /// Accepts the password leak.
  static let password = KnownLeak(
    location: ReportFixtures.leaky.findings[1].canary.location, reason: "ticket 43")
  /// Matches nothing in any fixture.
  static let never = KnownLeak(location: .requestHeader("X-Never"), source: "stdout", reason: "long fixed")

  private func results(_ report: LeakReport) throws -> [[String: Any]] {
    let log = try #require(
      try JSONSerialization.jsonObject(with: report.rendered(as: .sarif)) as? [String: Any])
    let runs = try #require(log["runs"] as? [[String: Any]])
    return try #require(runs.first?["results"] as? [[String: Any]])
  }

  private func judged(_ report: LeakReport, by entries: [KnownLeak], wholeRun: Bool) -> LeakReport {
    var report = report
    report.baseline = BaselineUse(report, knownLeaks: entries, coversWholeRun: wholeRun)
    return report
  }

  @Test func aTestsBaselineMarksEachResultNewOrUnchangedAndNamesItsEntry() throws {
    let report = judged(ReportFixtures.leaky, by: [Self.session, Self.never], wholeRun: false)
    let results = try results(report)
    #expect(results.map { $0["baselineState"] as? String } == ["unchanged", "new", "new"])
    let properties = try #require(results[0]["properties"] as? [String: Any])
    #expect(properties["baselineEntry"] as? String == Self.session.baselineKey)
    #expect(properties["baselineReason"] as? String == "ticket 42")
    // One test cannot call `never` stale: another test may match it.
    #expect(!results.contains { $0["baselineState"] as? String == "absent" })
    let problems = SARIFChecker.violations(in: report.rendered(as: .sarif), singleRun: true)
    #expect(problems.isEmpty, "\(problems)")
    // Twin: without a baseline no result carries a state.
    #expect(try self.results(ReportFixtures.leaky).allSatisfy { $0["baselineState"] == nil })
  }

  @Test func aWholeRunsStaleEntryIsAnAbsentResultThatPasses() throws {
    let report = judged(ReportFixtures.leaky, by: [Self.session, Self.never], wholeRun: true)
    let data = report.rendered(as: .sarif)
    #expect(SARIFChecker.violations(in: data, singleRun: true).isEmpty)
    let absent = try results(report).filter { $0["baselineState"] as? String == "absent" }
    #expect(absent.count == 1)
    #expect(absent.first?["kind"] as? String == "pass")
    #expect(absent.first?["level"] as? String == "none")
    #expect(absent.first?["ruleId"] as? String == SARIFLog.staleRuleID)
    #expect(
      (absent.first?["message"] as? [String: Any])?["text"] as? String
        == "Baseline entry (request.header[X-Never] in stdout) matched no finding in this run; if the leak is fixed, remove the entry (accepted because: long fixed)."
    )
    // Streamed in pieces, the log is the same bytes.
    var streamed = Data()
    try report.streamSARIF { streamed.append($0) }
    #expect(streamed == data)
  }

  @Test func theCheckerCatchesBadBaselineStatesAndKinds() throws {
    let report = judged(ReportFixtures.leaky, by: [Self.session], wholeRun: false)
    var log = try #require(
      try JSONSerialization.jsonObject(with: report.rendered(as: .sarif)) as? [String: Any])
    var runs = try #require(log["runs"] as? [[String: Any]])
    var results = try #require(runs[0]["results"] as? [[String: Any]])
    results[0]["baselineState"] = "existing"  // SARIF 2.0's word, not 2.1.0's
    results[1]["baselineState"] = nil
    results[2]["kind"] = "pass"  // with level error
    runs[0]["results"] = results
    log["runs"] = runs
    let problems = SARIFChecker.violations(
      in: try JSONSerialization.data(withJSONObject: log), singleRun: true)
    #expect(problems.count == 3, "\(problems)")
    #expect(problems.contains { $0.contains("baselineState existing is not one of") })
    #expect(problems.contains { $0.contains("2 of 3 results have a baselineState") })
    #expect(problems.contains { $0.contains("kind pass with level error") })
  }

  /// Three per-test reports of one run: the first matches `session`, the second `password`,
  /// none `never`.
  private func runFolder(baselined: Bool = true) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-stale-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let entries = [Self.session, Self.password, Self.never]
    var first = ReportFixtures.leaky
    first.findings = [first.findings[0]]
    var second = ReportFixtures.leaky
    second.title = "PasswordTests.reset()"
    second.findings = [second.findings[1]]
    for (number, report) in [first, second, ReportFixtures.clean].enumerated() {
      let written = baselined ? judged(report, by: entries, wholeRun: false) : report
      try written.rendered(as: .sarif).write(to: directory.appendingPathComponent("test\(number).sarif"))
    }
    return directory
  }

  @Test func aWholeRunsStaleEntriesAreTheOnesNoReportMatched() throws {
    let directory = try runFolder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let check = try SARIFMerge.check(
      directory: directory, baseline: [Self.session, Self.password, Self.never])
    #expect(check.stale == [Self.never])
    #expect(check.reports == 3 && check.reportsUsingBaseline == 3 && check.entryCounts == [3])
    // Twin: a baseline of only matched entries has none stale.
    #expect(try SARIFMerge.check(directory: directory, baseline: [Self.session, Self.password]).stale == [])
    // The merged log carries the stale entry once as `absent`, and every other result a state.
    let merged = try SARIFMerge.merge(
      directory: directory, baseline: [Self.session, Self.password, Self.never])
    #expect(SARIFChecker.violations(in: merged, singleRun: true).isEmpty)
    let log = try #require(try JSONSerialization.jsonObject(with: merged) as? [String: Any])
    let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
    #expect(results.map { $0["baselineState"] as? String } == ["unchanged", "unchanged", "absent"])
  }

  @Test func reportsJudgedWithoutABaselineCannotTellWhatIsStale() throws {
    let directory = try runFolder(baselined: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    let check = try SARIFMerge.check(directory: directory, baseline: [Self.session])
    #expect(check.reportsUsingBaseline == 0)
  }
}

/// `Configuration.knownLeaks` reaches the scope's report and its SARIF file.
@Suite struct ScopeBaselineTests {
  @Test func aScopesReportRecordsWhichKnownLeaksMatched() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-scope-bl-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    var configuration = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: directory)
    let accepted = KnownLeak(location: .custom("app.token"), source: "memory-log", reason: "ticket 7")
    let elsewhere = KnownLeak(
      location: .custom("app.other"), source: "stdout", reason: "another test leaks it")
    configuration.knownLeaks = [accepted, elsewhere]
    let trap = CanaryTrap(title: "scope baseline", configuration: configuration)
    try await trap.start()
    let token = trap.canary(.token, at: .custom("app.token"))
    let fresh = trap.canary(.token, at: .custom("app.fresh"))
    trap.memoryLog().write("token=\(token) fresh=\(fresh)")
    let report = await trap.finish()
    let use = try #require(report.baseline)
    #expect(use.entryCount == 2)
    #expect(use.matched == [BaselineUse.Match(leak: accepted, findings: 1)])
    #expect(use.stale == nil, "one scope never calls an entry stale")
    let sarifName = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".sarif") })
    let sarif = try String(contentsOf: directory.appendingPathComponent(sarifName), encoding: .utf8)
    #expect(sarif.contains("\"baselineState\" : \"unchanged\""))
    #expect(sarif.contains("\"baselineState\" : \"new\""))
  }
}

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
}

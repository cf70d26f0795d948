import Foundation
import Testing

@testable import CanaryTrap

/// Every JUnit document the package writes passes the checker of the Jenkins and Ant schemas'
/// rules, and the checker catches what those schemas reject.
@Suite struct JUnitSchemaTests {
  @Test(arguments: ["leaky", "hostile", "inconclusive", "clean", "scan"])
  func everyFixtureIsValid(fixture: String) throws {
    let report = try #require(ReportFixtures.named[fixture])
    let problems = JUnitSchemaChecker.violations(in: report.rendered(as: .junit))
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func theGoldenFixtureWithItsRunIsValid() {
    var report = ReportFixtures.leaky
    report.run = ReportFixtures.run
    let problems = JUnitSchemaChecker.violations(in: report.rendered(as: .junit))
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func theFileAScopeWritesIsValid() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-junit-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trap = CanaryTrap(
      title: "JUnitSchemaTests.scope()",
      configuration: .init(captureStandardStreams: false, reportDirectory: directory),
      sourceLocation: ReportFixtures.location)
    try await trap.start()
    let value = trap.canary(.token, at: .requestHeader("X-Leaked"))
    trap.memoryLog().write("sent \(value)")
    let report = await trap.finish()
    #expect(report.verdict != .clean)
    let file = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".junit.xml") }
    )
    let data = try Data(contentsOf: directory.appendingPathComponent(file))
    let problems = JUnitSchemaChecker.violations(in: data)
    #expect(problems.isEmpty, "\(problems)")
    #expect(String(decoding: data, as: UTF8.self).contains("<failure type=\"canary-leak\""))
  }

  @Test func theCheckerRejectsWhatStrictParsersReject() {
    let old = """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="CanaryTrap" tests="2" failures="1" errors="0" skipped="0">
        <testsuite name="T" tests="2" failures="1" errors="0" skipped="0">
          <properties><property name="verdict" value="leaky"/></properties>
          <testcase classname="T" name="a" file="T.swift" line="12"><failure message="m">x</failure></testcase>
          <testcase classname="T" name="b" time="1s"/>
        </testsuite>
      </testsuites>
      """
    let problems = JUnitSchemaChecker.violations(in: Data(old.utf8))
    for expected in [
      "<testsuites> has attribute skipped", "<testcase> has attribute file", "<testcase> has attribute line",
      "<testsuite> lacks required timestamp", "<testsuite> lacks required hostname",
      "<testsuite> lacks required time", "<testcase a> lacks required time",
      "<failure> in a lacks required type",
      "<testcase b> time \"1s\" is not a decimal", "not properties, testcases, system-out, system-err",
    ] {
      #expect(problems.contains { $0.contains(expected) }, "\(expected) not in \(problems)")
    }
    let broken = JUnitSchemaChecker.violations(in: Data("<testsuites><testsuite></testsuites>".utf8))
    #expect(broken.contains { $0.hasPrefix("not well-formed") }, "\(broken)")
  }

  @Test func theTimestampIsUTCWithoutAZoneAndTheTimeHasThreeDecimals() {
    let run = ReportRun(started: Date(timeIntervalSince1970: 1_764_542_096.5), seconds: 2.0456, hostname: "")
    #expect(run.junitTimestamp == "2025-11-30T22:34:56")
    #expect(run.junitSeconds == "2.046")
    #expect(run.hostname == "localhost")
    #expect(ReportRun(started: Date(), seconds: -3).junitSeconds == "0.000")
  }
}

extension ReportFixtures {
  /// A fixed run for goldens: 2026-01-02T03:04:05 UTC, 1.25 s, on `ci-runner`.
  static let run = ReportRun(
    started: Date(timeIntervalSince1970: 1_767_323_045), seconds: 1.25, hostname: "ci-runner")
}

import Foundation

extension LeakReport {
  /// JUnit XML: one `<testcase>` per planted location (a `<failure>` listing its findings when it
  /// leaked, an `<error>` when a canary there was never delivered), one per scanned source (an
  /// `<error>` when it was silent or unreadable) and one for run errors. Undelivered canaries are
  /// errors rather than skips because CI must not treat an unproven run as a pass.
  ///
  /// The document is valid against the Jenkins `junit-10.xsd` schema, and its `<testsuite>` against
  /// the Ant JUnit schema: `timestamp` (UTC, no zone), `hostname` and `time` on the suite, `time`
  /// and `classname` on every case, `package` and `id` for aggregators, `system-out` and
  /// `system-err` last. The source location goes in properties (neither schema allows `file` or
  /// `line` on `<testcase>`).
  func junitRendering() -> String {
    String(decoding: ReportTextSink.collect { try writeJUnit(to: $0) }, as: UTF8.self)
  }

  /// Writes `junitRendering()` to `sink`, one test case at a time.
  func writeJUnit(to sink: ReportTextSink) throws {
    let cases = junitCases()
    let failures = cases.filter { $0.outcome?.element == "failure" }.count
    let errorCount = cases.filter { $0.outcome?.element == "error" }.count
    let run = self.run ?? ReportRun(started: Date(), seconds: 0)
    let time = run.junitSeconds
    let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errorCount)\""
    var lines = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<testsuites name=\"CanaryTrap\" \(counts) time=\"\(time)\">",
      "  <testsuite name=\"\((title.isEmpty ? "CanaryTrap" : title).markupEscaped)\" \(counts) skipped=\"0\" time=\"\(time)\""
        + " timestamp=\"\(run.junitTimestamp)\" hostname=\"\(run.hostname.markupEscaped)\""
        + " package=\"CanaryTrap\" id=\"0\">",
      "    <properties>",
      "      <property name=\"verdict\" value=\"\(verdict.rawValue)\"/>",
      "      <property name=\"summary\" value=\"\(verdictLine.markupEscaped)\"/>",
    ]
    if totalFindingCount > findings.count {
      lines.append("      <property name=\"leakCount\" value=\"\(totalFindingCount)\"/>")
      lines.append("      <property name=\"omittedLeaks\" value=\"\(totalFindingCount - findings.count)\"/>")
    }
    if let sourceLocation {
      let written = "\(sourceLocation.filePath):\(sourceLocation.line):\(sourceLocation.column)"
      lines.append("      <property name=\"sourceLocation\" value=\"\(written.markupEscaped)\"/>")
      lines.append("      <property name=\"file\" value=\"\(sourceLocation.filePath.markupEscaped)\"/>")
      lines.append("      <property name=\"line\" value=\"\(sourceLocation.line)\"/>")
    }
    lines.append("    </properties>")
    try sink.lines(lines)
    for testCase in cases {
      let attributes =
        "classname=\"\(title.markupEscaped)\" name=\"\(testCase.name.markupEscaped)\" time=\"0.000\""
      guard let outcome = testCase.outcome else {
        try sink.line("    <testcase \(attributes)/>")
        continue
      }
      try sink.line("    <testcase \(attributes)>")
      try sink.write(
        "      <\(outcome.element) type=\"\(outcome.type)\" message=\"\(outcome.message.markupEscaped)\">")
      for (index, detail) in outcome.details.enumerated() {
        try sink.write((index == 0 ? "" : "\n") + detail.markupEscaped)
      }
      try sink.line("</\(outcome.element)>")
      try sink.line("    </testcase>")
    }
    try sink.lines([
      "    <system-out>\(verdictLine.markupEscaped)</system-out>",
      "    <system-err></system-err>",
      "  </testsuite>", "</testsuites>",
    ])
  }

  private struct JUnitCase {
    var name: String
    var outcome: Outcome?

    struct Outcome {
      var element: String
      var type: String
      var message: String
      var details: [String]
    }
  }

  private func junitCases() -> [JUnitCase] {
    var cases: [JUnitCase] = []
    for row in ReportMatrix(self, maxColumns: .max).rows {
      let leaks = findings.filter { $0.canary.location == row.location }
      let lost = undelivered.filter { $0.canary.location == row.location }
      let lostNotes = lost.map { ReportProblem(.undelivered($0)).message }
      if !leaks.isEmpty {
        let places = leaks.map { "\($0.source) (\($0.encoding))" }
        let omitted = omittedFindings.filter { $0.canary.location == row.location }
        let omittedCount = omitted.reduce(0) { $0 + $1.count }
        let omittedNotes = omitted.map { "\($0.count) more in \($0.source), counted but not listed" }
        cases.append(
          JUnitCase(
            name: row.location.description,
            outcome: .init(
              element: "failure", type: "canary-leak",
              message: "leaked \(count(leaks.count + omittedCount, "time")): "
                + places.joined(separator: ", ")
                + (omittedCount > 0 ? " and \(omittedCount) more not listed" : ""),
              details: leaks.map(\.message) + omittedNotes + lostNotes)))
      } else if !lost.isEmpty {
        cases.append(
          JUnitCase(
            name: row.location.description,
            outcome: .init(
              element: "error", type: "canary-undelivered",
              message: "never delivered: " + lost.compactMap(\.reason).joined(separator: "; "),
              details: lostNotes)))
      } else {
        cases.append(JUnitCase(name: row.location.description))
      }
    }
    for source in sources {
      let name = "source: \(source.name)"
      switch source.status {
      case .heard: cases.append(JUnitCase(name: name))
      case .silent(let reason):
        cases.append(
          JUnitCase(
            name: name,
            outcome: .init(
              element: "error", type: "canary-source-silent", message: "silent: \(reason)",
              details: [ReportProblem(.silentSource(source)).message])))
      case .failed(let reason):
        cases.append(
          JUnitCase(
            name: name,
            outcome: .init(
              element: "error", type: "canary-source-failed", message: "unreadable: \(reason)",
              details: [ReportProblem(.failedSource(source)).message])))
      }
    }
    if !errors.isEmpty {
      cases.append(
        JUnitCase(
          name: "run errors",
          outcome: .init(
            element: "error", type: "canary-run-error", message: count(errors.count, "error"),
            details: runErrors.map { ReportProblem(.error($0)).message })))
    }
    return cases
  }
}

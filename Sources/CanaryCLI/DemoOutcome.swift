import CanaryTrap
import Foundation

/// One example's run: its report and whether the verdict matched the example's design.
struct DemoOutcome {
  let scenario: DemoScenario
  let report: LeakReport
  let matches: Bool
  let reasons: [String]
  /// The kinds not run on this example, each with why (never counted as clean).
  let notRun: [String]

  init(scenario: DemoScenario, report: LeakReport, notRun: [String] = []) {
    self.scenario = scenario
    self.report = report
    self.notRun = notRun
    (matches, reasons) = scenario.check(report)
  }

  /// The one-line verdict, such as `LEAKY: 41 leaks at 38 locations — as designed`.
  var verdictLine: String {
    let note: String
    switch (scenario.expectation, matches) {
    case (.clean, true): note = "as designed"
    case (.leaks, true): note = "as its design implies"
    case (_, false): note = "UNEXPECTED: " + reasons.joined(separator: "; ")
    }
    return "\(report.verdictLine) — \(note)"
  }

  /// Every example's report in one, each source named after its example (`printing-logger/stdout`).
  static func combined(_ outcomes: [DemoOutcome]) -> LeakReport {
    let renamed = outcomes.map { outcome -> LeakReport in
      var report = outcome.report
      let prefix = outcome.scenario.name + "/"
      report.sources = report.sources.map { source in
        var source = source
        source.name = prefix + source.name
        return source
      }
      report.findings = report.findings.map { finding in
        var finding = finding
        finding.source = prefix + finding.source
        return finding
      }
      return report
    }
    var merged = LeakReport.merging(renamed, title: "canary demo")
    // What was not run is said in the report too, so its JSON never reads as clean there.
    for outcome in outcomes {
      for line in outcome.notRun {
        merged.runErrors.append(.other("\(outcome.scenario.name): not run: \(line)"))
      }
    }
    return merged
  }

  /// The text the demo prints: a grid and a verdict per example, then where the reports are.
  static func text(_ outcomes: [DemoOutcome], reportDirectory: URL) -> String {
    var lines: [String] = []
    for outcome in outcomes {
      lines.append(outcome.scenario.title)
      lines += DemoSummary(report: outcome.report).lines
      for line in outcome.notRun { lines.append("  not run: " + line) }
      lines.append("  → " + outcome.verdictLine + (outcome.notRun.isEmpty ? "" : " (of the kinds run)"))
      lines.append("")
    }
    let matched = outcomes.filter(\.matches).count
    lines.append("\(matched) of \(outcomes.count) examples behaved as their design implies.")
    lines.append("Reports (HTML and JSON): \(reportDirectory.standardizedFileURL.path)")
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Points standard output at /dev/null while the examples run, so a printing example does not
/// flood the terminal; the scopes' capture still scans everything printed.
final class StandardOutputSilencer {
  private var saved: Int32

  init() {
    fflush(nil)
    saved = dup(1)
    let null = open("/dev/null", O_WRONLY)
    if saved >= 0, null >= 0 {
      _ = dup2(null, 1)
    }
    if null >= 0 { close(null) }
  }

  /// Points standard output back where it was.
  func restore() {
    guard saved >= 0 else { return }
    fflush(nil)
    _ = dup2(saved, 1)
    close(saved)
    saved = -1
  }

  deinit { restore() }
}

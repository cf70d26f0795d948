/// Which entries of a baseline a report's findings matched: what lets SARIF mark each result
/// `new` or `unchanged` and a baseline entry that no longer matches `absent`, and what
/// `canary report stale` reads to find the entries a whole test run never matched.
package struct BaselineUse: Sendable, Hashable {
  /// One baseline entry that accepted findings of the report.
  package struct Match: Sendable, Hashable {
    /// The entry.
    package var leak: KnownLeak
    /// How many findings of the report it accepted.
    package var findings: Int
  }

  /// How many entries the baseline has.
  package var entryCount: Int
  /// The entries that accepted at least one finding, in the baseline's order.
  package var matched: [Match]
  /// The entries that matched no finding, when the report covers a whole run (`canary scan
  /// --baseline`); nil for one test's scope, whose unmatched entries may match in another test.
  package var stale: [KnownLeak]?

  /// Records which of `knownLeaks` matched `report`'s findings (sources named as
  /// `sourceName` gives them); `coversWholeRun` says whether an entry unmatched here is stale.
  package init(
    _ report: LeakReport, knownLeaks: [KnownLeak], coversWholeRun: Bool,
    sourceName: (LeakFinding) -> String = { $0.source }
  ) {
    let triage = KnownLeakTriage(report, knownLeaks: knownLeaks, sourceName: sourceName)
    self.init(triage, entryCount: knownLeaks.count, coversWholeRun: coversWholeRun)
  }

  /// The same record from a triage already made.
  package init(_ triage: KnownLeakTriage, entryCount: Int, coversWholeRun: Bool) {
    self.entryCount = entryCount
    matched = triage.matched.filter { !$0.findings.isEmpty }.map {
      Match(leak: $0.leak, findings: $0.findings.count)
    }
    stale = coversWholeRun ? triage.absent : nil
  }

  /// The entry that accepted `finding` (the first that matches, as the triage counts it), if any.
  package func entry(accepting finding: LeakFinding) -> KnownLeak? {
    matched.first { $0.leak.matches(finding) }?.leak
  }
}

extension KnownLeak {
  /// The entry as one stable line (location, source and encoding; not the reason), the key that
  /// ties a SARIF result to its baseline entry across reports.
  package var baselineKey: String { description }
}

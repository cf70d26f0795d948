/// A report's findings sorted into the known leaks they match and everything else.
package struct KnownLeakTriage: Sendable {
  /// The findings of each known leak, in the order the leaks were given (a finding counts for the
  /// first leak it matches).
  package let matched: [(leak: KnownLeak, findings: [LeakFinding])]
  /// The report without the matched findings: what the run must still answer for.
  package let remaining: LeakReport
  /// The undelivered canaries each known undelivered entry (``KnownLeak/undelivered(_:reason:)``)
  /// accepts, in the order the entries were given.
  package let matchedUndelivered: [(leak: KnownLeak, deliveries: [CanaryDelivery])]
  /// Findings that were counted but not kept (``ScanOptions/maxFindingsPerCanary``) for a canary
  /// and source whose kept findings the known leaks accepted: nobody knows whether those match,
  /// so they count as leaks.
  package let uncoveredOmissions: Int

  /// Sorts `report`'s findings; `sourceName` names each finding's source for matching (by default
  /// its source as reported).
  package init(
    _ report: LeakReport, knownLeaks: [KnownLeak], sourceName: (LeakFinding) -> String = { $0.source }
  ) {
    var buckets = knownLeaks.filter { !$0.isUndelivered }.map { (leak: $0, findings: [LeakFinding]()) }
    var unmatched: [LeakFinding] = []
    for finding in report.findings {
      let name = sourceName(finding)
      if let index = buckets.firstIndex(where: { $0.leak.matches(finding, sourceName: name) }) {
        buckets[index].findings.append(finding)
      } else {
        unmatched.append(finding)
      }
    }
    matched = buckets
    var undelivered = knownLeaks.filter(\.isUndelivered).map { (leak: $0, deliveries: [CanaryDelivery]()) }
    var remaining = report
    remaining.findings = unmatched
    remaining.deliveries = report.deliveries.filter { delivery in
      guard let index = undelivered.firstIndex(where: { $0.leak.matches(delivery) }) else { return true }
      undelivered[index].deliveries.append(delivery)
      return false
    }
    matchedUndelivered = undelivered
    self.remaining = remaining
    let accepted = Set(buckets.flatMap(\.findings).map { FindingKey(canary: $0.canary, source: $0.source) })
    uncoveredOmissions = report.omittedFindings
      .filter { accepted.contains(FindingKey(canary: $0.canary, source: $0.source)) }
      .reduce(0) { $0 + $1.count }
  }

  private struct FindingKey: Hashable {
    let canary: Canary
    let source: String
  }

  /// The known leaks that matched no finding.
  package var absent: [KnownLeak] { matched.filter { $0.findings.isEmpty }.map(\.leak) }

  /// The known undelivered entries whose canary was delivered, or not planted, in this run.
  package var absentUndelivered: [KnownLeak] {
    matchedUndelivered.filter { $0.deliveries.isEmpty }.map(\.leak)
  }

  /// One sentence per known leak that occurred: how often, where and how.
  package var knownMessages: [String] {
    matched.filter { !$0.findings.isEmpty }.map { leak, findings in
      let locations = Set(findings.map { "\($0.canary.location)" }).sorted()
      let sources = Self.distinct(findings.map(\.source))
      let encodings = Self.distinct(findings.map(\.encoding))
      return "known leak (\(leak)): \(findings.count) finding\(findings.count == 1 ? "" : "s") of"
        + " \(locations.count) location\(locations.count == 1 ? "" : "s") (\(Self.list(locations)))"
        + " in \(Self.list(sources)), encoded \(Self.list(encodings))"
        + (leak.reason.map { "; accepted because: \($0)" } ?? "")
    }
      + matchedUndelivered.flatMap { leak, deliveries in
        deliveries.map { delivery in
          let why = delivery.reason ?? "unknown reason"
          // An entry `canary baseline` wrote ends with the run's reason; this run's, if the same,
          // is said once.
          let repeated = LeakBaseline.runReasonSuffix(why)
          let accepted = leak.reason.map { $0.hasSuffix(repeated) ? String($0.dropLast(repeated.count)) : $0 }
          return "known undelivered canary (\(delivery.canary.location)): never delivered (\(why))"
            + (accepted.map { "; accepted because: \($0)" } ?? "")
        }
      }
  }

  /// One sentence per known leak that did not occur.
  package var absentMessages: [String] {
    absent.map { leak in
      "known leak (\(leak)) did not occur in this run: if the component no longer leaks there,"
        + " remove it from knownLeaks"
    }
  }

  /// One sentence per known undelivered entry whose canary was delivered or not planted.
  package var absentUndeliveredMessages: [String] {
    absentUndelivered.map { leak in
      "known undelivered canary (\(leak)) was delivered, or not planted, in this run: if the client"
        + " now delivers it, remove it from knownLeaks"
    }
  }

  private static func distinct(_ items: [String]) -> [String] {
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
  }

  /// Up to five items joined by commas, then how many more.
  private static func list(_ items: [String]) -> String {
    items.count <= 5
      ? items.joined(separator: ", ")
      : items.prefix(5).joined(separator: ", ") + " and \(items.count - 5) more"
  }
}

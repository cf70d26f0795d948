import CanaryTrap

/// A leak a test accepts, for a component known to leak: findings it matches are summarised in
/// one known issue instead of failing the test once each, and a known leak that no longer occurs
/// is reported so the test can be tightened.
public struct KnownLeak: Sendable, Hashable, CustomStringConvertible {
  /// The location whose canary may leak; nil accepts every location.
  public var location: CanaryLocation?
  /// The source it may leak into (a sink's name such as `stdout`, or a sink's prefix such as
  /// `file`, which covers `file:app.log`); nil accepts every source.
  public var source: String?

  /// Accepts leaks of the canary planted at `location`, into `source` or anywhere.
  public static func at(_ location: CanaryLocation, in source: String? = nil) -> KnownLeak {
    KnownLeak(location: location, source: source)
  }

  /// Accepts every leak into `source`: a sink's name, or the prefix of a sink's files such as `file`.
  public static func into(_ source: String) -> KnownLeak {
    KnownLeak(location: nil, source: source)
  }

  /// Whether `finding` is one of the leaks this accepts.
  public func matches(_ finding: LeakFinding) -> Bool {
    if let location, finding.canary.location != location { return false }
    if let source, finding.source != source, !finding.source.hasPrefix(source + ":") { return false }
    return true
  }

  /// `request.url.query[session] in stdout`, `anything in file`.
  public var description: String {
    "\(location.map { "\($0)" } ?? "anything") in \(source ?? "any source")"
  }
}

/// A report's findings sorted into the known leaks they match and everything else.
struct KnownLeakTriage: Sendable {
  /// The findings of each known leak, in the order the leaks were given (a finding counts for the
  /// first leak it matches).
  let matched: [(leak: KnownLeak, findings: [LeakFinding])]
  /// The report without the matched findings: what the test must still answer for.
  let remaining: LeakReport

  init(_ report: LeakReport, knownLeaks: [KnownLeak]) {
    var buckets = knownLeaks.map { (leak: $0, findings: [LeakFinding]()) }
    var unmatched: [LeakFinding] = []
    for finding in report.findings {
      if let index = buckets.firstIndex(where: { $0.leak.matches(finding) }) {
        buckets[index].findings.append(finding)
      } else {
        unmatched.append(finding)
      }
    }
    matched = buckets
    var remaining = report
    remaining.findings = unmatched
    self.remaining = remaining
  }

  /// One sentence per known leak that occurred: how often, where and how.
  var knownMessages: [String] {
    matched.filter { !$0.findings.isEmpty }.map { leak, findings in
      let locations = Set(findings.map { "\($0.canary.location)" }).sorted()
      let sources = Self.distinct(findings.map(\.source))
      let encodings = Self.distinct(findings.map(\.encoding))
      return "known leak (\(leak)): \(findings.count) finding\(findings.count == 1 ? "" : "s") of"
        + " \(locations.count) location\(locations.count == 1 ? "" : "s") (\(Self.list(locations)))"
        + " in \(Self.list(sources)), encoded \(Self.list(encodings))"
    }
  }

  /// One sentence per known leak that did not occur.
  var absentMessages: [String] {
    matched.filter { $0.findings.isEmpty }.map { leak, _ in
      "known leak (\(leak)) did not occur in this run: if the component no longer leaks there,"
        + " remove it from knownLeaks"
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

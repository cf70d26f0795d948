import CanaryTrap
import Foundation

/// `canary scan --baseline`: sorts a scan's findings into baselined ones, new ones and stale
/// baseline entries, naming sources relative to a root directory so that a baseline written in
/// one checkout matches in another.
struct ScanBaselineTriage {
  /// The report of the leaks the baseline does not accept.
  let remaining: LeakReport
  /// Baseline entries that matched no finding.
  let stale: [KnownLeak]
  /// Findings counted but not kept beside baselined ones, which nobody can judge.
  let uncoveredOmissions: Int
  /// Lines for standard error: what was baselined, what is stale, what could not be judged.
  let messages: [String]

  /// The option naming the root sources are named relative to.
  static let rootOption = Option<String?>.value(
    "--root", placeholder: "DIR",
    help:
      "Name sources under DIR relative to it in baseline entries, so a baseline matches in any checkout."
      + " Pass relative PATHs or set this; temporary directories never belong in a baseline.",
    defaultValue: "the current directory")

  /// The root a parsed command names, or the current directory.
  static func root(_ parsed: ParsedCommand) -> String {
    var root = parsed[rootOption] ?? FileManager.default.currentDirectoryPath
    if root.count > 1, root.hasSuffix("/") { root.removeLast() }
    return root
  }

  /// `source` without `root/` in front.
  static func sourceName(_ source: String, root: String) -> String {
    let prefix = root == "/" ? "/" : root + "/"
    return source.hasPrefix(prefix) ? String(source.dropFirst(prefix.count)) : source
  }

  init(_ report: LeakReport, baseline: LeakBaseline, root: String) {
    let triage = KnownLeakTriage(
      report, knownLeaks: baseline.knownLeaks, sourceName: { Self.sourceName($0.source, root: root) })
    var remaining = triage.remaining
    // A scan is a whole run: an entry it did not match is stale, and SARIF says `absent`.
    remaining.baseline = BaselineUse(triage, entryCount: baseline.knownLeaks.count, coversWholeRun: true)
    self.remaining = remaining
    stale = triage.absent
    uncoveredOmissions = triage.uncoveredOmissions
    var lines: [String] = []
    let baselined = triage.matched.reduce(0) { $0 + $1.findings.count }
    lines.append(
      "baseline: \(baselined) finding\(baselined == 1 ? "" : "s") baselined by"
        + " \(triage.matched.count - stale.count) of \(baseline.knownLeaks.count) entries;"
        + " \(remaining.findings.count) new")
    lines += triage.knownMessages.map { "baselined " + $0 }
    lines += stale.map {
      "stale baseline entry (\($0)): no finding matched it; if the leak is fixed, remove the entry"
    }
    if uncoveredOmissions > 0 {
      lines.append(
        "\(uncoveredOmissions) more findings were counted but not kept (--max-findings) beside baselined"
          + " ones, so the baseline cannot judge them; raise --max-findings")
    }
    messages = lines
  }
}

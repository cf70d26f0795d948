/// The outcome of one run: which canaries leaked where, which were delivered, and which sinks
/// were looked at.
///
/// A report is *clean* only when nothing leaked, every planted canary is proven delivered, and
/// every source heard the run; otherwise it is *leaky* or *inconclusive*.
public struct LeakReport: Sendable, Hashable {
  /// What produced the report: a test's name, `canary scan`, a demo example.
  public var title: String
  /// Every canary searched for.
  package var canaries: [Canary]
  /// Every match, in source order.
  public var findings: [LeakFinding]
  /// Every sink or file scanned.
  package var sources: [ScannedSource]
  /// Delivery proof for each planted canary; empty when the run did not check delivery.
  package var deliveries: [CanaryDelivery]
  /// Problems that make the run inconclusive beyond delivery and silent sinks, such as a
  /// transport that threw, as sentences (``RunError/message``); set, each becomes ``RunError/other(_:)``.
  package var errors: [String] {
    get { runErrors.map(\.message) }
    set { runErrors = newValue.map(RunError.other) }
  }
  /// The same problems, by what went wrong.
  package var runErrors: [RunError]
  /// Where in the user's tests the run was written, when known.
  package var sourceLocation: ReportSourceLocation?
  /// When, how long and where the run happened, when known; JUnit output uses the rendering
  /// time on this machine otherwise.
  package var run: ReportRun?
  /// The baseline the run was judged against and which of its entries matched, when one was in
  /// use (``CanaryTrap/Configuration/knownLeaks`` or `canary scan --baseline`).
  package var baseline: BaselineUse?
  /// The error (one of ``runErrors``) that stopped the run before it could be judged, when one did:
  /// a scope that could not start, a kind that could not plant. What the run left undone follows
  /// from it, so ``problems`` gives it first.
  package var stopCause: RunError?

  /// Creates a report.
  package init(
    title: String, canaries: [Canary], findings: [LeakFinding] = [], sources: [ScannedSource] = [],
    deliveries: [CanaryDelivery] = [], errors: [String] = [],
    sourceLocation: ReportSourceLocation? = nil
  ) {
    self.title = title
    self.canaries = canaries
    self.findings = findings
    self.sources = sources
    self.deliveries = deliveries
    self.runErrors = errors.map(RunError.other)
    self.sourceLocation = sourceLocation
  }

  /// The overall outcome.
  public enum Verdict: String, Sendable, Hashable {
    /// No leak, every canary delivered, every source heard the run.
    case clean
    /// At least one canary was found in a sink.
    case leaky
    /// Nothing leaked, but something was not proven: a canary not delivered, a silent or failed
    /// source, or an error.
    case inconclusive
  }

  /// Leaky beats inconclusive beats clean.
  public var verdict: Verdict {
    if !findings.isEmpty { return .leaky }
    if !undelivered.isEmpty || !problemSources.isEmpty || !runErrors.isEmpty { return .inconclusive }
    return .clean
  }

  /// Whether the verdict is clean.
  public var isClean: Bool { verdict == .clean }

  /// Canaries that were planted but never proven to arrive.
  public var undelivered: [CanaryDelivery] { deliveries.filter { !$0.isDelivered } }

  /// Sources that were silent or failed.
  package var problemSources: [ScannedSource] { sources.filter { $0.status != .heard } }

  /// The distinct locations with at least one finding.
  public var leakedLocations: [CanaryLocation] {
    var seen = Set<CanaryLocation>()
    return findings.map(\.canary.location).filter { seen.insert($0).inserted }
  }

  /// A report whose errors are typed.
  package init(
    title: String, canaries: [Canary], findings: [LeakFinding], sources: [ScannedSource],
    deliveries: [CanaryDelivery], runErrors: [RunError], sourceLocation: ReportSourceLocation? = nil
  ) {
    self.init(
      title: title, canaries: canaries, findings: findings, sources: sources, deliveries: deliveries,
      sourceLocation: sourceLocation)
    self.runErrors = runErrors
  }

  /// Combines reports, for instance every example of the demo, into one.
  package static func merging(_ reports: [LeakReport], title: String) -> LeakReport {
    LeakReport(
      title: title,
      canaries: reports.flatMap(\.canaries),
      findings: reports.flatMap(\.findings),
      sources: reports.flatMap(\.sources),
      deliveries: reports.flatMap(\.deliveries),
      runErrors: reports.flatMap(\.runErrors))
  }
}

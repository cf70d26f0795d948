import CanaryTrap
import CanaryTrapPrimitives
import Foundation

/// One scope's life as the adapters run it: start, body, finish, and the messages to record,
/// exactly once per scope. The scope itself writes its report files when a report directory is
/// configured (by default from `CANARY_TRAP_REPORT_DIR`), named after its title.
struct ScopeSession: Sendable {
  /// The scope.
  let trap: CanaryTrap
  /// Leaks the test accepts.
  let knownLeaks: [KnownLeak]

  /// Creates the scope and registers it as running; nothing runs until ``start()``.
  init(
    title: String, configuration: CanaryTrap.Configuration, sourceLocation: ReportSourceLocation?,
    knownLeaks: [KnownLeak] = []
  ) {
    trap = CanaryTrap(title: title, configuration: configuration, sourceLocation: sourceLocation)
    self.knownLeaks = knownLeaks
  }

  /// Starts the scope; a failure is not thrown, so that the adapters can stay `rethrows`: the
  /// scope records it as what stopped the run, and throws it again from `start()` and `runMatrix`.
  func start() async {
    try? await trap.startForAdapter()
  }

  /// Finishes the scope unless the test already did and reported it, and returns the report with
  /// the messages to record.
  ///
  /// `thrown` is the error the test threw, when it threw: it goes into the report (and its files)
  /// unless it is the error that stopped the run, which is there already. When `rethrown`, the
  /// test framework records it, so the messages leave it out, whichever of the two it is.
  func finish(thrown: (any Error)?, rethrown: Bool = true) async -> ScopeOutcome? {
    var recorded: FrameworkRecorded?
    if let thrown {
      let isCause = trap.isStopCause(thrown)
      if !isCause { trap.report(.testThrew("\(thrown)")) }
      if rethrown { recorded = isCause ? .stopCause : .testThrew }
    }
    return await ReportedScopes.shared.finishOnce(trap, knownLeaks: knownLeaks, recordedByFramework: recorded)
  }
}

/// The problem of a run that the test framework records itself, because the test threw it: the
/// adapters leave it out of their own issues.
enum FrameworkRecorded: Sendable {
  /// The error that stopped the run (``LeakReport/stopCause``).
  case stopCause
  /// Another error the test threw (``RunError/testThrew(_:)``).
  case testThrew
}

/// A finished scope's report and what the adapters record of it.
struct ScopeOutcome: Sendable {
  /// The scope's full report, known leaks included.
  let report: LeakReport
  /// One message per problem the test must answer for: leaks no known leak matches, undelivered
  /// canaries, silent or failed sources, errors, and known leaks that did not occur.
  let messages: [IssueMessage]
  /// One summary per known leak that occurred, recorded as a known issue.
  let knownMessages: [String]

  /// Sorts `report` by the test's `knownLeaks` and the configuration's `baseline`. A known leak of
  /// the test that did not occur is an issue; a baseline entry that did not occur is not, because
  /// one scope sees only its own leaks (`canary scan --baseline` reports stale entries).
  init(
    _ report: LeakReport, knownLeaks: [KnownLeak], baseline: [KnownLeak] = [],
    recordedByFramework recorded: FrameworkRecorded? = nil
  ) {
    let triage = KnownLeakTriage(report, knownLeaks: knownLeaks + baseline)
    self.report = report
    let testLeaks = Set(knownLeaks)
    let absent = zip(
      triage.absent + triage.absentUndelivered, triage.absentMessages + triage.absentUndeliveredMessages
    ).filter { testLeaks.contains($0.0) }.map(\.1)
    var omissions: [String] = []
    if triage.uncoveredOmissions > 0 {
      omissions.append(
        "\(triage.uncoveredOmissions) more findings were counted but not kept (scanOptions.maxFindingsPerCanary)"
          + " beside accepted leaks; raise the limit so each can be judged")
    }
    messages =
      triage.remaining.issueMessages(omitting: recorded)
      + absent.map { IssueMessage($0) }
      + omissions.map { IssueMessage($0) }
    knownMessages = triage.knownMessages
  }
}

/// Scopes whose report was already recorded, so that a scope a test finished itself with
/// ``expectNoLeaks(in:fileID:filePath:line:column:)`` is not recorded again when it ends.
final class ReportedScopes: Sendable {
  /// The process-wide registry.
  static let shared = ReportedScopes()

  /// A reported scope, held weakly so that a finished scope's sinks are freed with it.
  private struct WeakScope: @unchecked Sendable {
    weak var trap: CanaryTrap?
  }

  private let reported = Locked([WeakScope]())

  /// Finishes `trap` and returns its report with the messages to record, or nil when it was
  /// already reported.
  func finishOnce(
    _ trap: CanaryTrap, knownLeaks: [KnownLeak] = [], recordedByFramework recorded: FrameworkRecorded? = nil
  ) async -> ScopeOutcome? {
    let isFirst = reported.withLock { scopes -> Bool in
      scopes.removeAll { $0.trap == nil }
      if scopes.contains(where: { $0.trap === trap }) { return false }
      scopes.append(WeakScope(trap: trap))
      return true
    }
    guard isFirst else { return nil }
    return ScopeOutcome(
      await trap.finish(), knownLeaks: knownLeaks, baseline: trap.configuration.usableKnownLeaks,
      recordedByFramework: recorded)
  }
}

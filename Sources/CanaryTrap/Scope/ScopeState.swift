/// The mutable part of a ``CanaryTrap``, guarded by its lock.
struct ScopeState {
  enum Phase: Equatable {
    case created
    case started
    case finishing
  }

  var phase = Phase.created
  var sinks: [RegisteredSink] = []
  var proofs: [String: DeliveryProof] = [:]
  /// Where in the user's code each canary was planted, by value, when known.
  var plantingSites: [String: ReportSourceLocation] = [:]
  var sent: [SentRequest] = []
  var returned: [ObservedResponse] = []
  var errors: [RunError] = []
  /// What stopped the run before it could be judged, when something did; the first one counts.
  var stopCause: StopCause?
  /// Why the server could not start, thrown again by every later ``CanaryTrap/start()``.
  var startFailure: (any Error)?
  var pendingBegins: [Task<Void, Never>] = []
  /// What kinds put outside the scope and take back when it finishes (see ``CanaryTrap/whenFinishing(_:)``).
  var finishingActions: [@Sendable () -> Void] = []
  var finishing: Task<LeakReport, Never>?
  /// When the scope's deadline passes, set by ``CanaryTrap/start()``.
  var deadline: ContinuousClock.Instant?
  /// Since when the scope's matrix has waited for its turn (see ``MatrixTurns``), while it waits.
  var turnWaitBegan: ContinuousClock.Instant?
  /// When the deadline's watch is next due while it watches; whoever first finds it overdue
  /// credits the stall (see ``creditStall(now:)``).
  var watchDue: ContinuousClock.Instant?
  /// What the deadline may still give back for stalls of the process.
  var stallCredit = StallCredit(allowance: .zero)
  /// Ends the scope's run at its deadline when the test body outlives it; cancelled by ``CanaryTrap/finish()``.
  var deadlineWatch: Task<Void, Never>?
  /// The scanner being built for the first `count` canaries (see ``CanaryTrap/prepareScanner()``).
  var preparedScanner: (count: Int, build: Task<LeakScanner, Never>)?

  /// Registers `sink` under a fresh window unless this scope already reads that very instance;
  /// returns the registration, or nil for a duplicate.
  mutating func register(_ sink: any LeakSink, isAmbient: Bool) -> RegisteredSink? {
    let identity = SinkIdentity(sink)
    if let identity, sinks.contains(where: { SinkIdentity($0.sink) == identity }) { return nil }
    let registered = RegisteredSink(sink: sink, window: .next(), isAmbient: isAmbient)
    sinks.append(registered)
    return registered
  }

  /// Marks `window`'s sink as begun (or being begun); false when someone already did.
  mutating func claimBegin(_ window: SinkWindow) -> Bool {
    guard let index = sinks.firstIndex(where: { $0.window == window }), !sinks[index].isClaimed else {
      return false
    }
    sinks[index].isClaimed = true
    return true
  }
}

/// A sink, the window this scope reads it through, and whether its silence matters.
struct RegisteredSink: Sendable {
  let sink: any LeakSink
  /// This scope's window on the sink.
  let window: SinkWindow
  /// Read for leaks but never reported silent: standard streams, which most apps never touch.
  let isAmbient: Bool
  /// Whether beginning it was started.
  var isClaimed = false
}

/// The identity of a sink that is a class instance; structs have none and are never deduplicated.
struct SinkIdentity: Hashable {
  let id: ObjectIdentifier

  init?(_ sink: any LeakSink) {
    guard type(of: sink) is AnyClass else { return nil }
    id = ObjectIdentifier(sink as AnyObject)
  }
}

/// What stopped a scope's run before it could be judged: the scope could not start, or a kind of
/// the matrix could not plant.
struct StopCause: Sendable {
  /// The problem reports give first, such as ``RunError/couldNotStart(reason:)``; also one of the errors.
  var error: RunError
  /// The error thrown for it, so an adapter that catches an error knows whether it is this one.
  var thrown: any Error
  /// Whether it was thrown to the test's own code (by ``CanaryTrap/start()`` or
  /// ``CanaryTrap/runMatrix(through:kinds:fileID:filePath:line:column:)``), not only to an adapter.
  var reachedTest = false
}

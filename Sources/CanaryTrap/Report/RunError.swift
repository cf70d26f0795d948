/// Something that went wrong in a run beyond its leaks, undelivered canaries and silent or failed
/// sources, by what went wrong; every report format words it the same (``message``).
public struct RunError: Sendable, Hashable {
  /// What went wrong.
  package var kind: Kind

  /// The kinds of run errors.
  package enum Kind: Sendable, Hashable {
    /// The scope's server could not start, so nothing of the run can be judged.
    case couldNotStart(reason: String)
    /// A request kind could not plant its canaries, so the matrix sent nothing.
    case couldNotPlant(kind: String, reason: String)
    /// A request of the matrix failed, was not sent, or answered as it must not.
    case requestFailed(String)
    /// A sink could not begin, so it may miss what the app wrote.
    case sinkFailedToBegin(sink: String, reason: String)
    /// A sink was added from synchronous code and began in the background.
    case sinkBeganLate(sink: String)
    /// The scope's deadline passed while the test body still ran.
    case deadlinePassed(Duration)
    /// No canary was planted, so no sink was tested.
    case noCanaryPlanted
    /// The server kept no record of some requests, so delivery proof may have missed evidence.
    case recordIncomplete(requestsDropped: Int, bytesDropped: Int)
    /// An entry of `Configuration.knownLeaks` that cannot match anything.
    case unusableKnownLeak(index: Int, entry: String, problem: String)
    /// The test threw an error that did not stop the run.
    case testThrew(String)
    /// Any other problem, as a sentence: ``CanaryTrap/reportError(_:)`` and reports read back.
    case other(String)
  }

  /// The sentence reports give.
  public var message: String { kind.message }

  package static func couldNotStart(reason: String) -> RunError {
    RunError(kind: .couldNotStart(reason: reason))
  }
  package static func couldNotPlant(kind: String, reason: String) -> RunError {
    RunError(kind: .couldNotPlant(kind: kind, reason: reason))
  }
  package static func requestFailed(_ text: String) -> RunError { RunError(kind: .requestFailed(text)) }
  package static func sinkFailedToBegin(sink: String, reason: String) -> RunError {
    RunError(kind: .sinkFailedToBegin(sink: sink, reason: reason))
  }
  package static func sinkBeganLate(sink: String) -> RunError { RunError(kind: .sinkBeganLate(sink: sink)) }
  package static func deadlinePassed(_ deadline: Duration) -> RunError {
    RunError(kind: .deadlinePassed(deadline))
  }
  package static var noCanaryPlanted: RunError { RunError(kind: .noCanaryPlanted) }
  package static func recordIncomplete(requestsDropped: Int, bytesDropped: Int) -> RunError {
    RunError(kind: .recordIncomplete(requestsDropped: requestsDropped, bytesDropped: bytesDropped))
  }
  package static func unusableKnownLeak(index: Int, entry: String, problem: String) -> RunError {
    RunError(kind: .unusableKnownLeak(index: index, entry: entry, problem: problem))
  }
  package static func testThrew(_ text: String) -> RunError { RunError(kind: .testThrew(text)) }
  package static func other(_ text: String) -> RunError { RunError(kind: .other(text)) }
}

extension RunError.Kind {
  /// The sentence reports give.
  var message: String {
    switch self {
    case .couldNotStart(let reason): "CanaryTrap could not start: \(reason)"
    case .couldNotPlant(let kind, let reason): "request kind \(kind) could not plant: \(reason)"
    case .requestFailed(let text), .other(let text): text
    case .sinkFailedToBegin(let sink, let reason): "sink \(sink) failed to begin: \(reason)"
    case .sinkBeganLate(let sink):
      "sink \(sink) was added from synchronous code after the scope started and begins asynchronously,"
        + " so what the app wrote before it was fully begun may be missed: use `await trap.addSink(_:)`"
        + " or list it in the configuration"
    case .deadlinePassed(let deadline):
      "the scope's deadline of \(deadline) passed while its test body was still running:"
        + " its server was stopped, so what the body did after that is unproven"
    case .noCanaryPlanted:
      "no canary was planted in this scope, so no sink was tested for a leak: plant one with"
        + " trap.canary(_:at:) or run the matrix"
    case .recordIncomplete(let requests, let bytes):
      "the server's record is incomplete (\(requests) requests and \(bytes) "
        + "bytes not kept; see LoopbackServer.Configuration.maxRecordedRequests and maxRecordedBytes), "
        + "so delivery proof may have missed evidence"
    case .unusableKnownLeak(let index, let entry, let problem):
      "Configuration.knownLeaks[\(index)] (\(entry)) is not used: \(problem); name both a location and"
        + " a source"
    case .testThrew(let error): "the test threw \(error)"
    }
  }
}

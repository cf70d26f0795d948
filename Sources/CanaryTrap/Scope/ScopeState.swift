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
  var sent: [SentRequest] = []
  var returned: [ObservedResponse] = []
  var errors: [String] = []
  var pendingBegins: [Task<Void, Never>] = []
  var finishing: Task<LeakReport, Never>?
}

/// A sink and whether its silence matters.
struct RegisteredSink: Sendable {
  let sink: any LeakSink
  /// Read for leaks but never reported silent: standard streams, which most apps never touch.
  let isAmbient: Bool
}

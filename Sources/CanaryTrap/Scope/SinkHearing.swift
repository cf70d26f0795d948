/// Whether one sink heard the run, decided per sink (not per file or stream it returned) by its
/// ``HearingRule``; see <doc:Sinks>.
struct SinkHearing {
  /// The sink's own rule.
  let rule: HearingRule
  /// Whether another scope read the same instance while this one did.
  let sharedWithAnotherScope: Bool
  /// Whether any of the sink's contents held this run's tracer or a canary.
  let heardTracerOrCanary: Bool
  /// How many bytes the sink captured during the scope, over all its contents.
  let bytes: Int
  /// This run's tracer.
  let tracer: String
  /// Whether any request the server received carried the tracer.
  let tracerWasSent: Bool

  /// The rule that applies: a sink only this run writes to falls back to needing the tracer or a
  /// canary when another scope read it at the same time.
  var effectiveRule: HearingRule {
    sharedWithAnotherScope ? .tracerOrCanary : rule
  }

  /// Why the sink heard nothing of the run, or nil when it heard it.
  var silenceReason: String? {
    if heardTracerOrCanary { return nil }
    if bytes == 0 { return "it received nothing during the scope" }
    switch effectiveRule {
    case .anyByteDuringScope:
      return nil
    case .tracerOrCanary:
      let why =
        sharedWithAnotherScope
        ? "other scopes read it at the same time" : "other code may write to it"
      let tracerHint =
        tracerWasSent
        ? "" : "; no request of this run carried the tracer, so put CanaryTrap.tracer in your routes"
      return
        "it received \(bytes) bytes during the scope, none holding this run's tracer \(tracer) or a canary,"
        + " and \(why), so only those prove it heard this run\(tracerHint)"
    }
  }

  /// The sink's scanned contents with their status: every one heard when the sink heard the run,
  /// else each silent with the reason (one silent entry named after the sink when it returned none).
  func judge(_ scanned: [ScannedSource], sinkName: String) -> [ScannedSource] {
    guard let reason = silenceReason else { return scanned }
    guard !scanned.isEmpty else {
      return [
        ScannedSource(name: sinkName, bytes: 0, status: .silent(reason: "the sink returned no content"))
      ]
    }
    return scanned.map { source in
      guard source.status == .heard else { return source }
      var silent = source
      silent.status = .silent(reason: reason)
      return silent
    }
  }
}

import CanaryTrapPrimitives

/// Which windows are open on each sink instance in the process, so a scope can tell whether
/// another scope read the same instance at the same time: then bytes in its window may be the
/// other run's, and only the tracer or a canary proves that this run was heard.
final class SinkWindowLedger: Sendable {
  /// The ledger of this process.
  static let shared = SinkWindowLedger()

  private struct Entry {
    var open: Set<SinkWindow> = []
    var overlapped: Set<SinkWindow> = []
  }

  private let entries = Locked<[SinkIdentity: Entry]>([:])

  /// Notes that `window` opened on `sink`; any window open at the same time overlaps it.
  func opened(_ window: SinkWindow, on sink: any LeakSink) {
    guard let identity = SinkIdentity(sink) else { return }
    entries.withLock { entries in
      var entry = entries[identity] ?? Entry()
      entry.open.insert(window)
      if entry.open.count > 1 { entry.overlapped.formUnion(entry.open) }
      entries[identity] = entry
    }
  }

  /// Whether another window was open on `sink` at some time while `window` was.
  func overlapped(_ window: SinkWindow, on sink: any LeakSink) -> Bool {
    guard let identity = SinkIdentity(sink) else { return false }
    return entries.withLock { $0[identity]?.overlapped.contains(window) ?? false }
  }

  /// Notes that `window` closed on `sink`.
  func closed(_ window: SinkWindow, on sink: any LeakSink) {
    guard let identity = SinkIdentity(sink) else { return }
    entries.withLock { entries in
      guard var entry = entries[identity] else { return }
      entry.open.remove(window)
      entry.overlapped.remove(window)
      entries[identity] = entry.open.isEmpty ? nil : entry
    }
  }
}

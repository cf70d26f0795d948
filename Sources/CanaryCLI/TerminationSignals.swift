import CanaryTrap
import CanaryTrapPrimitives
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM, caught from the moment this is created until ``wait()`` returns.
final class TerminationSignals: Sendable {
  private let queue = DispatchQueue(label: "canary.serve.signals")
  private let sources: Locked<[any DispatchSourceSignal]>
  private let state = Locked<(received: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

  /// Installs the handlers at once, so a signal that arrives before ``wait()`` is not lost.
  init() {
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      sources.append(DispatchSource.makeSignalSource(signal: signalNumber, queue: queue))
    }
    self.sources = Locked(sources)
    for source in sources {
      source.setEventHandler { [state] in
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
          defer { state = (true, nil) }
          return state.received ? nil : state.waiter
        }
        waiter?.resume()
      }
      source.resume()
    }
  }

  /// Returns once either signal has arrived (at once if one already has); a second signal after
  /// that ends the process at once, as if none had been caught.
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let received = state.withLock { state -> Bool in
        if !state.received { state.waiter = continuation }
        return state.received
      }
      if received { continuation.resume() }
    }
    sources.withLock { $0.forEach { $0.cancel() } }
    for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, SIG_DFL) }
  }
}

/// The scope's scanner, built while the run goes on when the canaries are known early.
extension CanaryTrap {
  /// Starts building the scanner for every canary planted so far in the background, so that
  /// finishing the scope need not wait for it; a canary planted later makes finishing build anew.
  func prepareScanner() {
    let planted = canaries.canaries
    let (tracer, options) = (tracer, configuration.scanOptions)
    // On a thread of its own: built on the shared pool, it would hold the threads the run's
    // requests need, and delay them.
    let build = Task.detached {
      await DedicatedThreads.run(named: "CanaryTrap scanner") {
        Self.makeScanner(for: planted, tracer: tracer, options: options)
      }
    }
    state.withLock { $0.preparedScanner = (planted.count, build) }
  }

  /// The scanner for every canary planted and the tracer: the prepared one when no canary was
  /// planted since (canaries are only ever added), a new one otherwise.
  func scanner() async -> LeakScanner {
    let planted = canaries.canaries
    if let prepared = state.withLock({ $0.preparedScanner }), prepared.count == planted.count {
      return await prepared.build.value
    }
    return Self.makeScanner(for: planted, tracer: tracer, options: configuration.scanOptions)
  }

  /// A scanner for `planted` and for the tracer, which proves a sink heard the run.
  private static func makeScanner(for planted: [Canary], tracer: String, options: ScanOptions) -> LeakScanner
  {
    LeakScanner(canaries: planted + [Canary(value: tracer, location: .custom("tracer"))], options: options)
  }
}

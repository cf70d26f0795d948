extension CanaryTrap {
  /// Runs `body` inside a fresh scope set as ``current``: starts it, runs the body, finishes it.
  ///
  /// An error thrown by the body (or by starting the scope) is returned in `result` and also
  /// recorded in the report, which is then inconclusive at best; one that stopped the run (a
  /// scope that could not start, a kind that could not plant) is recorded once, as its cause.
  package static func withScope<R>(
    title: String, configuration: Configuration = Configuration(),
    sourceLocation: ReportSourceLocation? = nil,
    _ body: (CanaryTrap) async throws -> R
  ) async -> (result: Result<R, any Error>, report: LeakReport) {
    let trap = CanaryTrap(title: title, configuration: configuration, sourceLocation: sourceLocation)
    let result: Result<R, any Error>
    do {
      try await trap.start()
      result = .success(try await $current.withValue(trap) { try await body(trap) })
    } catch {
      // The error that stopped the run is in the report already, as its cause.
      if !trap.isStopCause(error) { trap.report(.testThrew("\(error)")) }
      result = .failure(error)
    }
    return (result, await trap.finish())
  }
}

import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The scope's deadline bounds the whole scope, not only the matrix: a test body still running
/// when it passes makes the run inconclusive, naming the deadline, and its server is stopped so a
/// body waiting on it ends instead of hanging.
@Suite("The scope deadline bounds the test body", .timeLimit(.minutes(2)))
struct ScopeDeadlineTests {
  /// A scope of `scopeDeadline` whose body delivers a canary, then sends one request through a
  /// real URLSession (60 s timeout) to a route that answers after `answerDelay`, and logs a safe line.
  private func run(scopeDeadline: Duration, answerDelay: Duration) async -> (LeakReport, Duration) {
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: false, reportDirectory: nil, scopeDeadline: scopeDeadline)
    let clock = ContinuousClock()
    let started = clock.now
    let (_, report) = await CanaryTrap.withScope(title: "body-deadline", configuration: configuration) {
      trap in
      let log = trap.memoryLog()
      try await DeliveredCanary.send(in: trap)
      trap.server.on(
        .get, "/\(trap.tracer)/slow", respond: ServerResponse.text("late").delayed(by: answerDelay))
      let configuration = URLSessionConfiguration.uncachedEphemeral
      configuration.timeoutIntervalForRequest = 60
      let session = URLSession(configuration: configuration)
      defer { session.invalidateAndCancel() }
      let request = URLRequest(url: trap.baseURL.appendingPathComponent("\(trap.tracer)/slow"))
      _ = try await Transport.urlSession(session).send(request)
      log.write("GET /\(trap.tracer)/slow 200")
    }
    return (report, clock.now - started)
  }

  @Test(
    "a body still waiting on the scope's server at the deadline ends the scope as inconclusive, naming it")
  func bodyPastTheDeadlineIsInconclusive() async {
    let (report, elapsed) = await run(scopeDeadline: .seconds(2), answerDelay: .seconds(3600))
    #expect(report.verdict == .inconclusive)
    #expect(
      report.errors.first
        == "the scope's deadline of 2.0 seconds passed while its test body was still running: its server was stopped, so what the body did after that is unproven",
      "\(report.errors)")
    #expect(elapsed < .seconds(50), "the body ended only after \(elapsed)")
  }

  @Test("twin: the same body answered before the deadline is clean")
  func bodyWithinTheDeadlineIsClean() async {
    let (report, _) = await run(scopeDeadline: .seconds(60), answerDelay: .zero)
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  @Test("a scope finished before its deadline records nothing when the deadline later passes")
  func finishedScopeIgnoresItsDeadline() async throws {
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: false, reportDirectory: nil, scopeDeadline: .milliseconds(300))
    let trap = CanaryTrap(title: "finished-early", configuration: configuration)
    try await trap.start()
    try await DeliveredCanary.send(in: trap)
    trap.memoryLog().write("GET /\(trap.tracer)/twin 404")
    let report = await trap.finish()
    try await Task.sleep(for: .milliseconds(600))
    trap.deadlinePassed()  // as the watch would, had finish not cancelled it
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
    #expect(await trap.finish().errors.isEmpty)
  }
}

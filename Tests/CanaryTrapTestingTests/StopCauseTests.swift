import CanaryTrap
import CanaryTrapPrimitives
import CanaryTrapServer
import Foundation
import Testing

@testable import CanaryTrapTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The text of an issue's comments, or the error it caught.
private func text(of issue: Issue) -> String {
  if let error = issue.error { return "caught \(error)" }
  return issue.comments.map(\.rawValue).joined(separator: "\n")
}

/// A run stopped by its cause (a kind that cannot plant, a scope that cannot start) records the
/// cause first, once, and what it left undone in one summary after it.
@Suite struct StopCauseTests {
  /// What a kind of the user's own throws when it cannot plant.
  struct FixtureMissing: Error, CustomStringConvertible {
    var description: String { "the fixture it needs is missing" }
  }

  /// A kind whose planting throws, after every built-in kind planted its canaries.
  static let refusingKind = RequestKind(name: "refusing", summary: "cannot plant") { _ in
    throw FixtureMissing()
  }
  static let plantingFailure = "request kind refusing could not plant: the fixture it needs is missing"

  /// A configuration whose scope cannot start: its server's port is held by `holder`.
  static func unstartable(holder: LoopbackServer) -> CanaryTrap.Configuration {
    var configuration = AdapterScenario.quiet
    configuration.server.port = holder.port
    return configuration
  }

  /// Runs `body` in `trait`'s scope and returns the text of every issue it recorded, in order.
  private func recordedIssues(
    of trait: CanaryTrapTrait, _ body: @escaping @Sendable (CanaryTrap) async throws -> Void
  ) async throws -> [String] {
    let test = try #require(Test.current)
    let recorded = Locked([String]())
    try await withKnownIssue {
      try await trait.provideScope(for: test, testCase: Test.Case.current) {
        try await body(try #require(CanaryTrap.current))
      }
    } matching: { issue in
      recorded.withLock { $0.append(text(of: issue)) }
      return true
    }
    return recorded.current
  }

  @Test("the trait records a kind that could not plant first, once, then one summary of what it left undone")
  func plantingFailureFirst() async throws {
    let issues = try await recordedIssues(of: .canaryTrap(AdapterScenario.quiet)) { trap in
      let log = trap.memoryLog()
      try await trap.runMatrix(
        through: AdapterScenario.loggingTransport(into: log), kinds: RequestKind.all + [Self.refusingKind])
    }
    try #require(issues.count == 2, "\(issues)")
    #expect(issues[0] == "the run failed: " + Self.plantingFailure)
    #expect(
      issues[1].hasPrefix("the run stopped before it could be judged because of it, which left "),
      "\(issues[1])")
    #expect(issues[1].contains(" canaries never delivered (request."), "\(issues[1])")
    #expect(issues[1].contains("1 sink that heard nothing (memory-log)"), "\(issues[1])")
    #expect(!issues.contains { $0.hasPrefix("caught ") })
  }

  @Test("the trait records a scope that could not start first, once, then one summary")
  func startFailureFirst() async throws {
    let holder = LoopbackServer()
    try holder.start()
    defer { holder.stop() }
    let issues = try await recordedIssues(of: .canaryTrap(Self.unstartable(holder: holder))) { trap in
      let log = trap.memoryLog()
      try await trap.runMatrix(through: AdapterScenario.loggingTransport(into: log))
    }
    try #require(issues.count == 2, "\(issues)")
    #expect(issues[0].hasPrefix("the run failed: CanaryTrap could not start: "), "\(issues[0])")
    #expect(issues[1].hasPrefix("the run stopped before it could be judged because of it, which left "))
    #expect(issues[1].contains("no canary was planted"), "\(issues[1])")
  }

  @Test("twin: an error of the test's own is rethrown, and each problem is its own issue")
  func otherErrorsAreRethrown() async throws {
    struct Boom: Error {}
    let test = try #require(Test.current)
    let recorded = Locked([String]())
    try await withKnownIssue {
      try await CanaryTrapTrait.canaryTrap(AdapterScenario.quiet).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        let trap = try #require(CanaryTrap.current)
        trap.memoryLog().write("started")
        _ = trap.canary(.token, at: .requestHeader("X-One"))
        _ = trap.canary(.token, at: .requestHeader("X-Two"))
        throw Boom()
      }
    } matching: { issue in
      recorded.withLock { $0.append(text(of: issue)) }
      return true
    }
    #expect(recorded.current.count == 3, "\(recorded.current)")
    #expect(recorded.current.prefix(2).allSatisfy { $0.contains("was never delivered") })
    #expect(recorded.current.last == "caught Boom()")
  }

  @Test("twin: an error of the test's own that reads like the cause is not taken for it, and is rethrown")
  func lookalikeOfTheCauseIsRethrown() async throws {
    struct Lookalike: Error, CustomStringConvertible {
      var description: String { "\(FixtureMissing())" }
    }
    let issues = try await recordedIssues(of: .canaryTrap(AdapterScenario.quiet)) { trap in
      let log = trap.memoryLog()
      do {
        try await trap.runMatrix(
          through: AdapterScenario.loggingTransport(into: log), kinds: RequestKind.all + [Self.refusingKind])
      } catch {
        throw Lookalike()
      }
    }
    #expect(issues.first == "the run failed: " + Self.plantingFailure, "\(issues)")
    #expect(issues.last == "caught \(FixtureMissing())", "\(issues)")
    #expect(issues.filter { $0.hasPrefix("caught ") }.count == 1, "\(issues)")
  }

  @Test("withCanaryTrap rethrows the cause for Swift Testing to record, after one summary")
  func withCanaryTrapRethrowsTheCause() async throws {
    let recorded = Locked([String]())
    await withKnownIssue {
      await #expect(throws: FixtureMissing.self) {
        try await withCanaryTrap(configuration: AdapterScenario.quiet) { trap in
          try await trap.runMatrix(
            through: AdapterScenario.loggingTransport(into: trap.memoryLog()),
            kinds: [.getQuery, .postJSON, Self.refusingKind])
        }
      }
    } matching: { issue in
      recorded.withLock { $0.append(text(of: issue)) }
      return true
    }
    #expect(
      recorded.current == [
        "the run stopped before it could be judged because of the error the test threw, which left 7"
          + " canaries never delivered (request.url.query[session], request.url.query[email],"
          + " request.body.json[user.email] and 4 more) and 1 sink that heard nothing (memory-log):"
          + " see its report (CANARY_TRAP_REPORT_DIR) for each"
      ])
  }

  @Test("a leak recorded before the stop is still its own issue, after the cause")
  func leaksStayIssuesOfTheirOwn() async throws {
    let issues = try await recordedIssues(of: .canaryTrap(AdapterScenario.quiet)) { trap in
      try await AdapterScenario.run(in: trap, leak: true)
      try await trap.runMatrix(
        through: AdapterScenario.loggingTransport(into: trap.memoryLog()),
        kinds: [.getQuery, Self.refusingKind])
    }
    try #require(issues.count == 3, "\(issues)")
    #expect(issues[0] == "the run failed: " + Self.plantingFailure)
    #expect(issues[1].hasPrefix(AdapterScenario.leakMessage))
    #expect(
      issues[2].hasPrefix("the run stopped before it could be judged because of it, which left 2 canaries"))
  }

  @Test("the report gives the cause as its first problem, and once")
  func reportOrdersTheCauseFirst() async throws {
    let result = await CanaryTrap.matrix(
      title: "stopped", configuration: AdapterScenario.quiet, kinds: [.getQuery, Self.refusingKind]
    ) { AdapterScenario.loggingTransport(into: $0.memoryLog()) }
    let report = try #require(result.report)
    #expect(report.problems.first?.message == "the run failed: " + Self.plantingFailure)
    #expect(report.problems.filter { $0.message.contains("could not plant") }.count == 1)
    #expect(report.errors == [Self.plantingFailure])
  }
}

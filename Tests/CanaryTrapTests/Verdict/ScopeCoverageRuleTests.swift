import CanaryTrap
import Foundation
import Testing

/// A scope is clean only when it tested something: no canary planted means no sink was ever
/// tested for a leak, so the run is inconclusive and says why; a canary planted but never
/// delivered is undelivered, which is inconclusive too. Each rule has its clean twin.
@Suite("Verdict rules: a scope that tested nothing is never clean")
struct ScopeCoverageRuleTests {
  private static let quiet = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)
  private struct NoTransport: Error {}
  private static let noCanary = "no canary was planted in this scope, so no sink was tested for a leak"

  @Test("a scope in which no canary was planted is inconclusive, saying no sink was tested")
  func noCanaryIsInconclusive() async {
    let (_, report) = await CanaryTrap.withScope(title: "no-canary", configuration: Self.quiet) { trap in
      trap.memoryLog().write("GET /\(trap.tracer)/users 200")
    }
    #expect(report.canaries.isEmpty)
    #expect(report.sources.map(\.status) == [.heard])
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.count == 1 && report.errors[0].hasPrefix(Self.noCanary), "\(report.errors)")
  }

  @Test("twin: one delivered canary and a sink that heard the run without it is clean")
  func oneDeliveredCanaryAndACleanSinkIsClean() async {
    let (result, report) = await CanaryTrap.withScope(title: "one-canary", configuration: Self.quiet) {
      trap in
      try await DeliveredCanary.send(in: trap)
      trap.memoryLog().write("GET /\(trap.tracer)/twin 404")
    }
    #expect(throws: Never.self) { try result.get() }
    #expect(report.canaries.count == 1 && report.undelivered.isEmpty)
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  @Test("twin: the same delivered canary written to the sink is a leak, so the clean twin could fail")
  func oneDeliveredCanaryLoggedIsLeaky() async {
    let (_, report) = await CanaryTrap.withScope(title: "one-canary-leaks", configuration: Self.quiet) {
      trap in
      let value = try await DeliveredCanary.send(in: trap)
      trap.memoryLog().write("GET /\(trap.tracer)/twin X-Twin-Token: \(value)")
    }
    #expect(report.verdict == .leaky)
    #expect(report.findings.map(\.source) == ["memory-log"])
  }

  @Test("a matrix of no kinds plants no canary and is inconclusive, not clean")
  func emptyMatrixIsInconclusive() async {
    let result = await CanaryTrap.matrix(title: "empty-matrix", configuration: Self.quiet, kinds: []) {
      trap in
      let log = trap.memoryLog()
      log.write("started")
      return Transport { _ in throw NoTransport() }
    }
    let report = result.report
    #expect(report?.verdict == .inconclusive)
    #expect(report?.errors.contains { $0.hasPrefix(Self.noCanary) } == true, "\(report?.errors ?? [])")
  }

  @Test(
    "canaries planted but none delivered are undelivered, so the run is inconclusive (not the no-canary rule)"
  )
  func plantedButNeverDeliveredIsInconclusive() async {
    let (_, report) = await CanaryTrap.withScope(title: "never-sent", configuration: Self.quiet) { trap in
      _ = trap.canary(.token, at: .requestHeader("X-Twin-Token"))
      _ = trap.canary(.email, at: .requestURL(.query("email")))
      trap.memoryLog().write("GET /\(trap.tracer)/users 200")
    }
    #expect(report.verdict == .inconclusive)
    #expect(report.undelivered.count == 2)
    #expect(!report.errors.contains { $0.hasPrefix(Self.noCanary) }, "\(report.errors)")
  }
}

import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrapTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A baseline read from a file into `Configuration.knownLeaks`: its leaks become known issues, any
/// other leak is an issue, and an entry that does not occur in one scope is not (a scope sees only
/// its own leaks; `canary scan --baseline` reports stale entries).
@Suite struct BaselineConfigurationTests {
  private static let kinds: [RequestKind] = [.getQuery, .postJSON]

  /// Runs the leaky matrix under a configuration holding `knownLeaks`; returns every issue's text
  /// and the scope's report.
  private func run(knownLeaks: [KnownLeak]) async throws -> (issues: [String], report: LeakReport) {
    var configuration = AdapterScenario.quiet
    configuration.knownLeaks = knownLeaks
    let recorded = Locked([String]())
    let trap = Locked<CanaryTrap?>(nil)
    try await withKnownIssue(isIntermittent: true) {
      _ = try await withCanaryTrap(configuration: configuration) { scope in
        trap.withLock { $0 = scope }
        let log = scope.memoryLog()
        let sessionConfiguration = URLSessionConfiguration.uncachedEphemeral
        sessionConfiguration.timeoutIntervalForRequest = 10
        let base = Transport.urlSession(URLSession(configuration: sessionConfiguration))
        try await scope.runMatrix(
          through: Transport { request in
            log.write(
              "→ \(request.url?.absoluteString ?? "") \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))"
            )
            return try await base.send(request)
          }, kinds: Self.kinds)
      }
    } matching: { issue in
      recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    // Finishing again returns the report the scope was judged by.
    let report = try #require(await trap.current?.finish())
    return (recorded.current, report)
  }

  /// A baseline file's entries, read back as tests read them.
  private func read(_ baseline: LeakBaseline) throws -> [KnownLeak] {
    try LeakBaseline(jsonData: try baseline.jsonData()).knownLeaks
  }

  @Test("a baseline written from one run accepts the next run's leaks, even with an entry that did not occur")
  func baselinedLeaksAreKnown() async throws {
    // Each run mints fresh canaries: the baseline names locations and sources, never values.
    let first = try await run(knownLeaks: [])
    #expect(first.issues.count > 5)
    var baseline = LeakBaseline(accepting: first.report, reason: "the request logger prints URLs and bodies")
    baseline.knownLeaks.append(
      KnownLeak(location: .requestHeader("X-Never"), source: "stdout", reason: "not part of this scope"))
    let second = try await run(knownLeaks: try read(baseline))
    #expect(second.issues == [], "\(second.issues)")
  }

  @Test("twin: a baseline naming the same locations in another sink leaves every leak an issue")
  func otherLeaksStayIssues() async throws {
    let first = try await run(knownLeaks: [])
    let elsewhere = LeakBaseline(accepting: first.report, reason: "elsewhere", sourceName: { _ in "stdout" })
    let second = try await run(knownLeaks: try read(elsewhere))
    #expect(second.issues.count > 5)
    #expect(second.issues.allSatisfy { $0.contains("leaked into memory-log") }, "\(second.issues)")
  }

  @Test("an entry without a location or a source accepts nothing and makes the scope say why")
  func partialEntriesAreErrors() async throws {
    let result = try await run(knownLeaks: [
      .into("memory-log"), KnownLeak(location: .custom("a.b"), reason: "r"),
    ])
    #expect(
      result.issues.contains {
        $0.contains(
          #"Configuration.knownLeaks[0] (anything in memory-log) is not used: without a location it would"#
            + #" accept every canary leaking into "memory-log""#)
      }, "\(result.issues)")
    #expect(
      result.issues.contains {
        $0.contains("Configuration.knownLeaks[1] (a.b in any source) is not used: without a source it would")
      }, "\(result.issues)")
    #expect(result.issues.filter { $0.contains("leaked into memory-log") }.count > 5, "\(result.issues)")
    #expect(result.report.verdict != .clean)
    #expect(result.report.baseline == nil)
  }

  @Test("an encoding in the entry narrows it: a raw-only entry leaves the percent-encoded leaks")
  func encodingNarrowsAnEntry() {
    let canary = Canary(value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.url.query[q]"))
    let raw = LeakFinding(
      canary: canary, encoding: "raw", source: "file:app.log", line: 1, column: 1, offset: 0, excerpt: "")
    var encoded = raw
    encoded.encodings = EncodingChain(.percent)
    let report = LeakReport(title: "t", canaries: [canary], findings: [raw, encoded])
    let entry = KnownLeak(location: canary.location, source: "file", encoding: "raw", reason: "r")
    let outcome = ScopeOutcome(report, knownLeaks: [], baseline: [entry])
    #expect(outcome.knownMessages.count == 1)
    #expect(outcome.knownMessages[0].contains("accepted because: r"))
    #expect(outcome.messages.count == 1)
    #expect(outcome.messages[0].text.contains("percent"), "\(outcome.messages)")
  }
}

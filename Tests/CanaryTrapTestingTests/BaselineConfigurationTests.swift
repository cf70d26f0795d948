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

  /// Runs the leaky matrix under a configuration holding `baseline`; returns every issue's text.
  private func issues(baseline: String) async throws -> [String] {
    var configuration = AdapterScenario.quiet
    configuration.knownLeaks = try LeakBaseline(jsonData: Data(baseline.utf8)).knownLeaks
    let recorded = Locked([String]())
    try await withKnownIssue(isIntermittent: true) {
      _ = try await withCanaryTrap(configuration: configuration) { trap in
        let log = trap.memoryLog()
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 10
        let base = Transport.urlSession(URLSession(configuration: sessionConfiguration))
        try await trap.runMatrix(
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
    return recorded.current
  }

  @Test("a baseline accepting the log's leaks: nothing is an issue, even its entry that did not occur")
  func baselinedLeaksAreKnown() async throws {
    let issues = try await issues(
      baseline: #"""
        {"version": 1, "knownLeaks": [
          {"source": "memory-log", "reason": "the request logger prints URLs and bodies"},
          {"location": "request.header[X-Never]", "source": "stdout", "reason": "not part of this scope"}
        ]}
        """#)
    #expect(issues == [], "\(issues)")
  }

  @Test("twin: a baseline for another sink leaves every leak an issue")
  func otherLeaksStayIssues() async throws {
    let issues = try await issues(
      baseline: #"{"version": 1, "knownLeaks": [{"source": "stdout", "reason": "elsewhere"}]}"#)
    #expect(issues.count > 5)
    #expect(issues.allSatisfy { $0.contains("leaked into memory-log") }, "\(issues)")
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

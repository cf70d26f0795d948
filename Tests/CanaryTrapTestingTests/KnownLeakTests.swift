import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrapTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The text of an issue's comments.
private func text(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}

/// A logger that writes every request URL and body into `log`: it leaks every query and body canary.
private func leakyTransport(into log: MemoryLog) -> Transport {
  let configuration = URLSessionConfiguration.uncachedEphemeral
  configuration.timeoutIntervalForRequest = 10
  let base = Transport.urlSession(URLSession(configuration: configuration))
  return Transport { request in
    log.write(
      "→ \(request.url?.absoluteString ?? "") \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))")
    return try await base.send(request)
  }
}

@Suite struct KnownLeakTests {
  private static let kinds: [RequestKind] = [.getQuery, .postJSON]

  /// Runs the leaky matrix in `withCanaryTrap` and returns the text of every issue that is not known.
  private func issuesOfLeakyMatrix(knownLeaks: [KnownLeak]) async throws -> [String] {
    let recorded = Locked([String]())
    try await withKnownIssue(isIntermittent: true) {
      _ = try await withCanaryTrap(configuration: AdapterScenario.quiet, knownLeaks: knownLeaks) { trap in
        try await trap.runMatrix(through: leakyTransport(into: trap.memoryLog()), kinds: Self.kinds)
      }
    } matching: { issue in
      recorded.withLock { $0.append(text(of: issue)) }
      return true
    }
    return recorded.current
  }

  @Test(
    "a component known to leak into its log: the accepted leaks are one known issue, nothing else is recorded"
  )
  func acceptedLeaksAreSummarised() async throws {
    let issues = try await issuesOfLeakyMatrix(knownLeaks: [.into("memory-log")])
    #expect(issues == [], "\(issues)")
  }

  @Test("twin: without the known leak the same matrix records one issue per finding")
  func unacceptedLeaksAreIssues() async throws {
    let issues = try await issuesOfLeakyMatrix(knownLeaks: [])
    #expect(issues.count > 5)
    #expect(issues.allSatisfy { $0.hasPrefix("canary planted in ") && $0.contains("leaked into memory-log") })
  }

  @Test("accepting one location leaves the others as issues")
  func acceptingOneLocationKeepsTheRest() async throws {
    let accepted = KnownLeak.at(.requestURL(.query("session")))
    let all = try await issuesOfLeakyMatrix(knownLeaks: [])
    let rest = try await issuesOfLeakyMatrix(knownLeaks: [accepted])
    #expect(rest.count < all.count)
    #expect(!rest.isEmpty)
    #expect(!rest.contains { $0.hasPrefix("canary planted in request.url.query[session] ") })
  }

  @Test("the summary says how many findings, where, and how they were encoded")
  func summaryWording() throws {
    let triage = KnownLeakTriage(
      AdapterScenario.problemReport, knownLeaks: [.at(.requestHeader("X-Session"))])
    #expect(
      triage.knownMessages == [
        "known leak (request.header[X-Session] in any source): 2 findings of 1 location (request.header[X-Session])"
          + " in app.log, stdout, encoded base64, raw"
      ])
    #expect(triage.remaining.findings.isEmpty)
    #expect(triage.remaining.problems.count == AdapterScenario.problemReport.problems.count - 2)
  }

  @Test("a known leak is recorded as a known issue commented by its summary, not as a caught error")
  func knownLeakIssueCarriesItsSummaryOnce() throws {
    let summary = try #require(
      KnownLeakTriage(AdapterScenario.problemReport, knownLeaks: [.into("stdout")]).knownMessages.first)
    // Recorded as known, it does not fail this test. Swift Testing prints it as "recorded a known
    // issue at …: Issue recorded", the summary and the comment why under it; nothing threw, so
    // not "Caught error: …" (an issue inside a known issue cannot be matched from outside it).
    IssueDestination.swiftTesting(#_sourceLocation).recordKnown([summary])
    #expect(AcceptedLeak.comment == "accepted by the test's knownLeaks")
  }

  @Test("expectNoLeaks(_:except:) records the other problems and not the accepted leaks")
  func expectNoLeaksExcept() {
    let recorded = Locked([String]())
    withKnownIssue(isIntermittent: true) {
      expectNoLeaks(AdapterScenario.problemReport, except: [.at(.requestHeader("X-Session"), in: "stdout")])
    } matching: { issue in
      recorded.withLock { $0.append(text(of: issue)) }
      return true
    }
    let messages = AdapterScenario.problemMessages.filter { !$0.contains("leaked into stdout") }
    #expect(recorded.current == messages)
  }

  @Test("a known leak that did not occur is an issue, so the test is tightened when the leak is fixed")
  func absentKnownLeakIsAnIssue() async throws {
    let recorded = Locked([String]())
    try await withKnownIssue {
      _ = try await withCanaryTrap(
        configuration: AdapterScenario.quiet, knownLeaks: [.at(.requestHeader("X-Session"))]
      ) {
        trap in
        try await AdapterScenario.run(in: trap, leak: false)
      }
    } matching: { issue in
      recorded.withLock { $0.append(text(of: issue)) }
      return true
    }
    #expect(
      recorded.current == [
        "known leak (request.header[X-Session] in any source) did not occur in this run: if the component no longer"
          + " leaks there, remove it from knownLeaks"
      ])
  }

  @Test("a report with more problems than the limit records the limit, the last saying how many more")
  func issuesAreCapped() {
    let canary = Canary(value: "cnryCAPcap0000000001", location: .requestHeader("X-Session"))
    let findings = (1...120).map { line in
      LeakFinding(
        canary: canary, encoding: "raw", source: "app.log", line: line, column: 1, offset: 0,
        excerpt: canary.value)
    }
    let report = LeakReport(title: "many", canaries: [canary], findings: findings)
    let messages = report.issueMessages()
    #expect(messages.count == LeakReport.maxIssueMessages)
    #expect(
      messages.last?.text == "and 21 more problems of this run: see its report (CANARY_TRAP_REPORT_DIR)")
  }
}

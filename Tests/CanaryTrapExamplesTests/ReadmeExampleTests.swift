import CanaryTrap
import CanaryTrapExamples
import CanaryTrapPrimitives
import CanaryTrapTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The README's first canary test, compiled and run as written, with a leaky twin.
@Suite(.canaryTrap) struct NetworkLogLeakTests {
  @Test func networkLogLeaksNoSecret() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    let client = RedactingTransport(sink: trap.memoryLog())  // your client, logging to the trap
    try await trap.runMatrix(through: Transport { try await client.send($0) })
  }  // scope ends: every sink scanned; one issue per leak, undelivered canary or silent sink
}

@Suite struct ReadmeExampleTwinTests {
  @Test func theSameTestFailsWhenTheClientLogsWholeRequests() async throws {
    let issues = Locked([String]())
    let report = Locked<LeakReport?>(nil)
    try await withKnownIssue {
      try await withCanaryTrap(
        configuration: CanaryTrap.Configuration(captureStandardStreams: false)
      ) { trap in
        let log = trap.memoryLog()
        let client = PrintingLogger(session: URLSession(configuration: .ephemeral), output: { log.write($0) })
        try await trap.runMatrix(through: Transport { try await client.send($0) })
        let finished = await trap.finish()  // the same report the adapter records issues from
        report.withLock { $0 = finished }
      }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      issues.withLock { $0.append(text) }
      // Past the report's issue cap the rest arrive as one summary issue.
      return text.contains("leaked into memory-log") || text.contains("more problems of this run")
    }
    let leaks = issues.current.filter { $0.contains("leaked into memory-log") }
    #expect(leaks.count > 20)
    #expect(leaks.contains { $0.hasPrefix("canary planted in request.header[") })
    // Issues stop at the report's cap (the rest are summarised in one), so the response side is
    // checked in the report itself.
    let leaked = report.current?.findings.map { "\($0.canary.location)" } ?? []
    #expect(leaked.contains { $0.hasPrefix("response.body.json[") }, "\(Set(leaked).count) locations")
  }
}

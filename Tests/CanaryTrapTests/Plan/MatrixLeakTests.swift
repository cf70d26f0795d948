import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

@Suite("Leaks caught through the matrix")
struct MatrixLeakTests {
  @Test("a logger of full requests and responses is caught at every location it prints")
  func leakyLoggerIsCaughtEverywhere() async throws {
    let session = TestTransports.session()
    let logBox = Locked<MemoryLog?>(nil)
    let result = await CanaryTrap.matrix(title: "leaky", configuration: .init(captureStandardStreams: false))
    {
      let log = $0.memoryLog()
      logBox.withLock { $0 = log }
      return TestTransports.leaky(.urlSession(session), into: log)
    }
    let report = try #require(result.report)
    let logText = try #require(logBox.current).lines.joined(separator: "\n")
    #expect(report.verdict == .leaky)
    #expect(result.allDelivered)
    let missed = result.coverage.filter { $0.foundIn.isEmpty }.map(\.location.description)
    // Only the middle hops of the chain never reach the app: URLSession follows them itself.
    #expect(
      Set(missed) == [
        "redirect[1].location.query[sig]", "redirect[1].location.path[2]", "redirect[2].location.path[2]",
      ])
    // Every canary the log holds verbatim is found, and found raw.
    for row in result.coverage where logText.contains(row.canary.value) {
      #expect(row.encodings.contains("raw"), "\(row.location) is in the log but was not found raw")
    }
    // The basic-auth header is base64 in the log: found all the same.
    let basic = result.coverage.filter { $0.kind == "basic-auth-header" }
    #expect(basic.count == 2 && basic.allSatisfy { !$0.foundIn.isEmpty })
    #expect(basic.allSatisfy { !logText.contains($0.canary.value) })
  }

  @Test("a safe logger twinned with one leaking a single header: only that header is reported")
  func oneLeakedHeaderIsNamed() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "one-header", configuration: .init(captureStandardStreams: false),
      kinds: [.authHeaders, .getQuery]
    ) { trap in
      let log = trap.memoryLog("app-log")
      let base = TestTransports.routeOnly(.urlSession(session), into: log)
      return Transport { request in
        log.write("custom ref: \(request.value(forHTTPHeaderField: "x-acme-session-ref") ?? "-")")
        return try await base.send(request)
      }
    }
    let report = try #require(result.report)
    #expect(report.verdict == .leaky)
    #expect(report.leakedLocations == [.requestHeader("x-Acme-Session-Ref")])
    #expect(report.findings.allSatisfy { $0.source == "app-log" })
  }
}

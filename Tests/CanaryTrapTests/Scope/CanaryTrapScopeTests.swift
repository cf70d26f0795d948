import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A sink whose collection always fails.
private struct BrokenSink: LeakSink {
  struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }
  var name: String { "broken" }
  func collect() async throws -> [SinkContent] { throw Failure() }
}

@Suite("The CanaryTrap scope")
struct CanaryTrapScopeTests {
  private let quiet = CanaryTrap.Configuration(captureStandardStreams: false)

  @Test("withScope sets current; a hand-planted header canary is delivered and a logged one leaks")
  func handPlantedCanaryDeliveredThenLeaked() async throws {
    for leaks in [false, true] {
      let (result, report) = await CanaryTrap.withScope(title: "hand", configuration: quiet) { trap in
        #expect(CanaryTrap.current === trap)
        let log = trap.memoryLog()
        let session = trap.canary(.token, at: .requestHeader("X-Session"))
        var request = URLRequest(url: trap.baseURL.appendingPathComponent("profile"))
        request.setValue(session, forHTTPHeaderField: "X-Session")
        _ = try await Transport.urlSession(TestTransports.session()).send(request)
        log.write(leaks ? "GET /profile X-Session=\(session)" : "GET /profile")
        return session
      }
      let value = try result.get()
      #expect(report.deliveries.map(\.status) == [.delivered])
      #expect(report.verdict == (leaks ? .leaky : .clean))
      #expect(report.findings.map(\.canary.value) == (leaks ? [value] : []))
    }
    #expect(CanaryTrap.current == nil)
  }

  @Test("a canary never sent is undelivered and makes the run inconclusive")
  func unsentCanaryIsUndelivered() async {
    let (_, report) = await CanaryTrap.withScope(title: "unsent", configuration: quiet) { trap in
      trap.memoryLog().write("nothing sent")
      _ = trap.canary(.token, at: .requestURL(.query("q")))
    }
    #expect(report.verdict == .inconclusive)
    #expect(
      report.undelivered.map(\.status) == [.undelivered(reason: "the server received no request at all")])
  }

  @Test("an error thrown by the body is returned and makes the report inconclusive")
  func bodyErrorIsInconclusive() async {
    struct Boom: Error {}
    let (result, report) = await CanaryTrap.withScope(title: "boom", configuration: quiet) { trap in
      try await DeliveredCanary.send(in: trap)
      trap.memoryLog().write("about to fail")
      throw Boom()
    }
    #expect(throws: Boom.self) { try result.get() }
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.count == 1 && report.errors[0].contains("Boom"))
  }

  @Test("a sink that throws is a failed source; a shared sink that heard nothing of the matrix is silent")
  func failedAndSilentSinks() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(title: "sinks", configuration: quiet, kinds: [.getQuery]) { trap in
      await trap.addSink(BrokenSink())
      await trap.addSink(
        TextSink(name: "unused-log", hearingRule: .tracerOrCanary) { "an old line of another run" })
      return TestTransports.routeOnly(.urlSession(session), into: trap.memoryLog("route-log"))
    }
    let report = try #require(result.report)
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.isEmpty, "\(report.errors)")
    let status = Dictionary(uniqueKeysWithValues: report.sources.map { ($0.name, $0.status) })
    #expect(status["route-log"] == .heard)
    guard case .failed(let reason)? = status["broken"] else {
      Issue.record("broken sink not failed: \(String(describing: status["broken"]))")
      return
    }
    #expect(reason.contains("disk on fire"))
    guard case .silent(let why)? = status["unused-log"] else {
      Issue.record("unused log not silent: \(String(describing: status["unused-log"]))")
      return
    }
    #expect(why.contains("tracer"))
  }

  @Test("finish returns the same report twice and writes it to the report directory")
  func finishIsIdempotentAndWritesTheReport() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-scope-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trap = CanaryTrap(
      title: "written report", configuration: .init(captureStandardStreams: false, reportDirectory: directory)
    )
    try await trap.start()
    trap.memoryLog().write("hello")
    let first = await trap.finish()
    let second = await trap.finish()
    #expect(first == second)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.contains { $0.hasSuffix(".json") })
  }
}

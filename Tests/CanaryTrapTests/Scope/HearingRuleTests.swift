import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loggers written the way careful people write them, outside this project.
private enum StrictLoggers {
  /// Writes `GET /api/:x/users 200 512B 3ms`: no URL data, no tracer, nothing but shapes.
  static func redacting(_ base: Transport, into log: some LogSink) -> Transport {
    Transport { request in
      let (data, response) = try await base.send(request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      log.write("\(request.httpMethod ?? "GET") /api/:x/users \(status) \(data.count)B 3ms")
      return (data, response)
    }
  }

  /// Writes the method, the status and one header of the request.
  static func header(_ name: String, _ base: Transport, into log: some LogSink) -> Transport {
    Transport { request in
      let (data, response) = try await base.send(request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      log.write(
        "\(request.httpMethod ?? "GET") \(status) \(name)=\(request.value(forHTTPHeaderField: name) ?? "-")")
      return (data, response)
    }
  }
}

@Suite("When a sink heard the run")
struct HearingRuleTests {
  private let quiet = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)
  private static let kinds: [RequestKind] = [.getQuery, .postJSON]

  private func matrix(
    configuration: CanaryTrap.Configuration? = nil,
    _ transport: @escaping (CanaryTrap, Transport) async -> Transport
  ) async throws -> LeakReport {
    let session = TestTransports.session()
    defer { session.invalidateAndCancel() }
    let result = await CanaryTrap.matrix(
      title: "hearing", configuration: configuration ?? quiet, kinds: Self.kinds
    ) {
      trap in await transport(trap, .urlSession(session))
    }
    #expect(result.allDelivered)
    return try #require(result.report)
  }

  @Test("a strict redacting logger writing into the scope's memory log is heard and clean")
  func strictLoggerInScopeLogIsClean() async throws {
    let report = try await matrix { trap, base in StrictLoggers.redacting(base, into: trap.memoryLog()) }
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  @Test("twin: a leaky logger writing into the scope's memory log leaks")
  func leakyLoggerInScopeLogLeaks() async throws {
    let report = try await matrix { trap, base in TestTransports.leaky(base, into: trap.memoryLog()) }
    #expect(report.verdict == .leaky)
  }

  @Test("twin: a memory log nobody wrote to is still silent, and says it received nothing")
  func unwrittenMemoryLogIsSilent() async throws {
    let report = try await matrix { trap, base in
      _ = trap.memoryLog("unused-log")
      return TestTransports.routeOnly(base, into: trap.memoryLog("route-log"))
    }
    #expect(report.verdict == .inconclusive)
    let silent = report.problems.map(\.message).filter { $0.hasPrefix("unused-log") }
    #expect(
      silent == [
        "unused-log heard nothing of this run (it received nothing during the scope), so a leak there would go unseen"
      ])
  }

  @Test(
    "the strict logger's bytes in a shared sink prove nothing: it is silent, saying why, without contradiction"
  )
  func strictLoggerInSharedSinkIsSilent() async throws {
    let shared = MemoryLog(name: "shared-log")
    let report = try await matrix { trap, base in
      await trap.addSink(
        TextSink(name: "app-log", hearingRule: .tracerOrCanary) {
          String(decoding: shared.data, as: UTF8.self)
        })
      return StrictLoggers.redacting(base, into: shared)
    }
    #expect(report.verdict == .inconclusive)
    let message = try #require(report.problems.first { $0.message.hasPrefix("app-log") }?.message)
    #expect(message.contains("heard nothing of this run (it received "))
    #expect(message.contains("none holding this run's tracer"))
    #expect(!message.contains("captured nothing"))
  }

  @Test(
    "a shared sink hears the run through the tracer in X-Request-ID or User-Agent",
    arguments: ["X-Request-ID", "User-Agent"])
  func tracerInHeadersIsHeard(header: String) async throws {
    let shared = MemoryLog(name: "shared-log")
    let report = try await matrix { trap, base in
      await trap.addSink(
        TextSink(name: "app-log", hearingRule: .tracerOrCanary) {
          String(decoding: shared.data, as: UTF8.self)
        })
      return StrictLoggers.header(header, base, into: shared)
    }
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  @Test("twin: the same header logger leaks through a shared sink when it logs a header canary")
  func headerLoggerLeaksThroughSharedSink() async throws {
    let shared = MemoryLog(name: "shared-log")
    let kind = RequestKind(name: "api-key", summary: "a header canary") { planter in
      planter.server.on(.get, planter.route, respond: .text("ok"))
      let key = planter.canary(.token, at: .requestHeader("X-API-Key"))
      return [planter.request("GET", planter.url(planter.route), headers: [("X-API-Key", key)])]
    }
    let session = TestTransports.session()
    defer { session.invalidateAndCancel() }
    let result = await CanaryTrap.matrix(title: "hearing", configuration: quiet, kinds: [kind]) { trap in
      await trap.addSink(
        TextSink(name: "app-log", hearingRule: .tracerOrCanary) {
          String(decoding: shared.data, as: UTF8.self)
        })
      return StrictLoggers.header("X-API-Key", .urlSession(session), into: shared)
    }
    #expect(result.report?.verdict == .leaky)
  }

  @Test(
    "a sink of the user's own states its rule; the default needs the tracer or a canary",
    arguments: [false, true])
  func userSinkStatesItsRule(ownsTheRun: Bool) async throws {
    struct Breadcrumbs: LeakSink {
      let ownsTheRun: Bool
      let crumbs: MemoryLog
      var name: String { "breadcrumbs" }
      var hearingRule: HearingRule { ownsTheRun ? .anyByteDuringScope : .tracerOrCanary }
      func collect() async throws -> [SinkContent] { [.bytes(crumbs.data, name: name)] }
    }
    let crumbs = MemoryLog()
    let report = try await matrix { trap, base in
      await trap.addSink(Breadcrumbs(ownsTheRun: ownsTheRun, crumbs: crumbs))
      return StrictLoggers.redacting(base, into: crumbs)
    }
    #expect(report.verdict == (ownsTheRun ? .clean : .inconclusive), "\(report.problems.map(\.message))")
  }

  @Test(
    "a memory log shared by scopes at the same time needs the tracer; used by one scope at a time, any byte counts"
  )
  func sharedMemoryLogFallsBackToTheTracer() async throws {
    let log = MemoryLog(name: "suite-log")
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: false, sinks: [log], reportDirectory: nil)
    let (_, alone) = await CanaryTrap.withScope(title: "alone", configuration: configuration) { trap in
      try await DeliveredCanary.send(in: trap)
      log.write("GET /api/:x/users 200 512B 3ms")
    }
    #expect(alone.verdict == .clean, "\(alone.problems.map(\.message))")

    let first = CanaryTrap(title: "first", configuration: configuration)
    let second = CanaryTrap(title: "second", configuration: configuration)
    try await first.start()
    try await second.start()
    try await DeliveredCanary.send(in: first)
    try await DeliveredCanary.send(in: second)
    log.write("GET /api/:x/users 200 512B 3ms")
    log.write("GET /\(first.tracer)/users 200")  // twin: the first scope's tracer proves it heard
    let firstReport = await first.finish()
    let secondReport = await second.finish()
    #expect(firstReport.verdict == .clean, "\(firstReport.problems.map(\.message))")
    #expect(secondReport.verdict == .inconclusive)
    #expect(
      secondReport.problems.map(\.message).first?.contains("other scopes read it at the same time") == true)
  }
}

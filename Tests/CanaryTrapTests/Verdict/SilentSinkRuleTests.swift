import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The silent-sink rules and every cause of an inconclusive verdict, each with its twin, through a
/// real scope: a run is clean only when nothing leaked, every canary is proven delivered, every
/// sink heard the run and nothing went wrong.
@Suite("Verdict rules: silent sinks and inconclusive causes")
struct SilentSinkRuleTests {
  /// A sink of the user's own whose `collect()` returns `contents` (or throws).
  struct ScriptedSink: LeakSink {
    var name: String
    var contents: @Sendable () throws -> [SinkContent]
    var failsToBegin = false
    /// The scripted exporter is one only this run writes to, so any byte proves it heard the run.
    var hearingRule: HearingRule { .anyByteDuringScope }

    func begin() async throws {
      if failsToBegin { throw ScriptedFailure(what: "begin") }
    }
    func collect() async throws -> [SinkContent] { try contents() }
  }

  struct ScriptedFailure: Error, CustomStringConvertible {
    var what: String
    var description: String { "scripted failure in \(what)" }
  }

  /// One delivered request-side canary (so delivery never decides the verdict), `sinks` added,
  /// and `app` run with the scope's base URL.
  static func run(
    sinks: [any LeakSink] = [], memoryLog: Bool = true, sendTracer: Bool = false,
    app: @escaping @Sendable (CanaryTrap, MemoryLog?, String) async throws -> Void = { _, _, _ in }
  ) async -> LeakReport {
    let (_, report) = await CanaryTrap.withScope(title: "silent-sink-rule", configuration: VerdictProbe.quiet)
    {
      trap in
      let log = memoryLog ? trap.memoryLog() : nil
      for sink in sinks { await trap.addSink(sink) }
      let value = trap.canary(.token, at: .requestHeader("X-Session"))
      trap.server.setFallback { _ in .text("ok") }
      let path = sendTracer ? "\(trap.tracer)/api/item" : "api/item"
      var request = URLRequest(url: trap.baseURL.appendingPathComponent(path))
      request.setValue(value, forHTTPHeaderField: "X-Session")
      let session = VerdictProbe.session()
      defer { session.finishTasksAndInvalidate() }
      _ = try await Transport.urlSession(session).send(request)
      try await app(trap, log, value)
    }
    return report
  }

  static func status(of name: String, in report: LeakReport) -> ScannedSource.Status? {
    report.sources.first { $0.name == name }?.status
  }

  static func isSilent(_ status: ScannedSource.Status?) -> Bool {
    if case .silent = status { return true }
    return false
  }

  static func isFailed(_ status: ScannedSource.Status?) -> Bool {
    if case .failed = status { return true }
    return false
  }

  @Test("captured nothing: a memory log nobody wrote to during the run is silent, the run inconclusive")
  func capturedNothingIsSilent() async {
    let report = await Self.run()
    #expect(Self.isSilent(Self.status(of: "memory-log", in: report)), "\(report.sources)")
    #expect(report.verdict == .inconclusive)
    // Twin: the same run with one safe line written is heard and clean.
    let heard = await Self.run { _, log, _ in log?.write("GET /api/item 200") }
    #expect(Self.status(of: "memory-log", in: heard) == .heard, "\(heard.sources)")
    #expect(heard.verdict == .clean, "\(heard.problemSources) \(heard.undelivered) \(heard.errors)")
  }

  @Test("captured nothing: the rule holds when the run sent its tracer too")
  func capturedNothingWithTracerIsSilent() async {
    let report = await Self.run(sendTracer: true)
    #expect(Self.isSilent(Self.status(of: "memory-log", in: report)), "\(report.sources)")
    #expect(report.verdict == .inconclusive)
  }

  @Test("sink returned no content: a sink whose collect() returns nothing is silent, the run inconclusive")
  func noContentIsSilent() async {
    let empty = ScriptedSink(name: "exporter", contents: { [] })
    let report = await Self.run(sinks: [empty]) { _, log, _ in log?.write("GET /api/item 200") }
    #expect(Self.isSilent(Self.status(of: "exporter", in: report)), "\(report.sources)")
    #expect(report.verdict == .inconclusive)
    // Twin: the same sink returning the app's safe line is heard (it states that only this run
    // writes to it, so any byte during the scope counts).
    let full = ScriptedSink(
      name: "exporter", contents: { [.bytes(Data("GET /api/item 200\n".utf8), name: "exporter")] })
    let heard = await Self.run(sinks: [full]) { _, log, _ in log?.write("GET /api/item 200") }
    #expect(Self.status(of: "exporter", in: heard) == .heard, "\(heard.sources)")
    #expect(heard.verdict == .clean, "\(heard.problemSources)")
  }

  @Test("captured bytes but no tracer: a shared file that got bytes, none of them this run's, is silent")
  func bytesWithoutTracerIsSilent() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rule-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func runWriting(_ line: @escaping @Sendable (CanaryTrap) -> String) async throws -> LeakReport {
      let file = directory.appendingPathComponent("app-\(UUID().uuidString).log")
      try Data().write(to: file)
      let sink = FileSink(name: "file", urls: [file], relativeTo: directory)
      return await Self.run(sinks: [sink], sendTracer: true) { trap, log, _ in
        log?.write("GET /\(trap.tracer)/api/item 200")
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        handle.write(Data((line(trap) + "\n").utf8))
        try handle.close()
      }
    }
    // Another process's line, nothing of this run.
    let other = try await runWriting { _ in "GET /health 200 (another process)" }
    let fileSources = other.sources.filter { $0.name.hasPrefix("file") }
    #expect(!fileSources.isEmpty, "\(other.sources)")
    #expect(fileSources.allSatisfy { Self.isSilent($0.status) }, "\(fileSources)")
    #expect(other.verdict == .inconclusive)
    // Twin: the app's own line, carrying the tracer.
    let own = try await runWriting { trap in "GET /\(trap.tracer)/api/item 200" }
    let ownSources = own.sources.filter { $0.name.hasPrefix("file") }
    #expect(!ownSources.isEmpty && ownSources.allSatisfy { $0.status == .heard }, "\(own.sources)")
    #expect(own.verdict == .clean, "\(own.problemSources)")
  }

  @Test("the silent reason tells the user to route the tracer only when no request of the run carried it")
  func silentReasonNamesAMissingTracer() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    /// The silent reasons of a shared file that got another process's line, in a run that sent its
    /// tracer or not.
    func silentReasons(sendTracer: Bool) async throws -> [String] {
      let file = directory.appendingPathComponent("app-\(UUID().uuidString).log")
      try Data().write(to: file)
      let sink = FileSink(name: "file", urls: [file], relativeTo: directory)
      let report = await Self.run(sinks: [sink], sendTracer: sendTracer) { _, log, _ in
        log?.write("GET /api/item 200")
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        handle.write(Data("GET /health 200 (another process)\n".utf8))
        try handle.close()
      }
      #expect(report.verdict == .inconclusive, "\(report.sources)")
      return report.sources.filter { $0.name.hasPrefix("file") }.compactMap { source in
        if case .silent(let reason) = source.status { return reason }
        return nil
      }
    }
    let hint = "no request of this run carried the tracer"
    let withoutTracer = try await silentReasons(sendTracer: false)
    #expect(!withoutTracer.isEmpty && withoutTracer.allSatisfy { $0.contains(hint) }, "\(withoutTracer)")
    // Twin: the run routed its tracer, so the reason does not tell the user to route it.
    let withTracer = try await silentReasons(sendTracer: true)
    #expect(!withTracer.isEmpty && withTracer.allSatisfy { !$0.contains(hint) }, "\(withTracer)")
  }

  @Test("a sink whose collect() throws is failed, and the run inconclusive")
  func throwingSinkIsFailed() async {
    let broken = ScriptedSink(name: "exporter", contents: { throw ScriptedFailure(what: "collect") })
    let report = await Self.run(sinks: [broken]) { _, log, _ in log?.write("GET /api/item 200") }
    #expect(Self.isFailed(Self.status(of: "exporter", in: report)), "\(report.sources)")
    #expect(report.verdict == .inconclusive)
  }

  @Test("a sink that fails to begin makes the run inconclusive")
  func sinkFailingToBeginIsInconclusive() async {
    let broken = ScriptedSink(
      name: "exporter", contents: { [.bytes(Data("GET /api/item 200\n".utf8), name: "exporter")] },
      failsToBegin: true)
    let report = await Self.run(sinks: [broken]) { _, log, _ in log?.write("GET /api/item 200") }
    #expect(report.verdict == .inconclusive, "\(report.errors) \(report.sources)")
    #expect(!report.errors.isEmpty || !report.problemSources.isEmpty)
  }

  @Test("an error the app reports makes an otherwise clean run inconclusive")
  func reportedErrorIsInconclusive() async {
    let report = await Self.run { trap, log, _ in
      log?.write("GET /api/item 200")
      trap.reportError("the app could not reach its second endpoint")
    }
    #expect(report.errors == ["the app could not reach its second endpoint"])
    #expect(report.verdict == .inconclusive)
  }

  @Test("a test body that throws makes the run inconclusive")
  func throwingBodyIsInconclusive() async {
    let report = await Self.run { _, log, _ in
      log?.write("GET /api/item 200")
      throw ScriptedFailure(what: "the test body")
    }
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.contains { $0.contains("scripted failure in the test body") })
  }

  @Test("a transport that throws inside the matrix makes the run inconclusive")
  func throwingTransportIsInconclusive() async throws {
    let (_, report) = await CanaryTrap.withScope(title: "matrix-throws", configuration: VerdictProbe.quiet) {
      trap in
      let log = trap.memoryLog()
      let transport = Transport { request in
        log.write("\(request.httpMethod ?? "GET") \(request.url?.path ?? "")")
        throw ScriptedFailure(what: "the transport")
      }
      try await trap.runMatrix(through: transport, kinds: [RequestKind.all[0]])
    }
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.contains { $0.contains("scripted failure in the transport") })
  }

  @Test("leaky beats inconclusive: a leak found in a run with a silent sink is leaky")
  func leakyBeatsInconclusive() async {
    let empty = ScriptedSink(name: "exporter", contents: { [] })
    let report = await Self.run(sinks: [empty]) { _, log, value in log?.write("X-Session: \(value)") }
    #expect(report.findings.count == 1)
    #expect(!report.problemSources.isEmpty)
    #expect(report.verdict == .leaky)
    #expect(!report.isClean)
  }

  @Test("a leak in a heard log is leaky; the same run with a safe line is clean")
  func leakIsLeakyAndItsTwinClean() async {
    let leaky = await Self.run { _, log, value in log?.write("→ GET /api/item X-Session: \(value)") }
    #expect(leaky.verdict == .leaky)
    #expect(leaky.findings.map(\.source) == ["memory-log"])
    let clean = await Self.run { _, log, _ in log?.write("→ GET /api/item X-Session: <redacted>") }
    #expect(clean.verdict == .clean)
    #expect(clean.isClean)
  }
}

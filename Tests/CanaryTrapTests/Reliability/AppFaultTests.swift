import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Faults on the app's side: its transport throwing, a log file vanishing before the scan, the
/// scope cancelled mid-run. Each must end in a report that names the problem, never a clean one.
@Suite("App-side faults")
struct AppFaultTests {
  private let quiet = CanaryTrap.Configuration(captureStandardStreams: false)

  struct TransportDown: Error, CustomStringConvertible {
    var description: String { "transport down" }
  }

  @Test("a transport that throws makes the matrix run inconclusive, naming each failed request")
  func throwingTransportIsInconclusive() async {
    let throwing = Transport { _ in throw TransportDown() }
    let working = Transport.urlSession(FaultyApp.session())
    for (isBroken, base) in [(false, working), (true, throwing)] {
      let (_, report) = await CanaryTrap.withScope(title: "transport", configuration: quiet) { trap in
        let transport = TestTransports.routeOnly(base, into: trap.memoryLog())
        try await trap.runMatrix(through: transport, kinds: [.postJSON, .responseHeader])
      }
      if isBroken {
        #expect(report.verdict == .inconclusive)
        #expect(report.errors.count == 2)
        #expect(report.errors.allSatisfy { $0.contains("failed: transport down") })
        #expect(report.undelivered.count >= 2, "request-side canaries never reached the server")
      } else {
        #expect(report.verdict == .clean, "\(report.errors) \(report.undelivered) \(report.problemSources)")
      }
    }
  }

  @Test("a log file that disappears before the scan fails its source; the kept twin leaks")
  func vanishedLogFileFailsItsSource() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canary-vanish-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for deletes in [false, true] {
      let file = directory.appendingPathComponent("app-\(deletes).log")
      try Data("started\n".utf8).write(to: file)
      var configuration = quiet
      configuration.sinks = [FileSink(urls: [file], relativeTo: directory)]
      let (result, report) = await CanaryTrap.withScope(title: "vanish", configuration: configuration) {
        trap in
        let secret = trap.canary(.token, at: .custom("app.secret"))
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("secret=\(secret)\n".utf8))
        try handle.close()
        if deletes { try FileManager.default.removeItem(at: file) }
      }
      #expect(throws: Never.self) { try result.get() }
      let source = try #require(report.sources.first { $0.name == "file:app-\(deletes).log" })
      if deletes {
        #expect(report.verdict == .inconclusive)
        guard case .failed(let reason) = source.status else {
          Issue.record("expected a failed source, got \(source.status)")
          continue
        }
        #expect(reason.contains("app-true.log"), "the reason should name the file: \(reason)")
      } else {
        #expect(report.verdict == .leaky)
        #expect(report.findings.map(\.source) == ["file:app-false.log"])
      }
    }
  }

  @Test("a scope cancelled mid-run reports the cancellation instead of a clean run")
  func cancelledScopeIsInconclusive() async throws {
    let started = AsyncStream<Void>.makeStream()
    let run = Task {
      await CanaryTrap.withScope(title: "cancelled", configuration: quiet) { trap in
        let log = trap.memoryLog()
        let value = trap.canary(.token, at: .requestHeader("X-Session"))
        var request = URLRequest(url: trap.baseURL.appendingPathComponent("slow"))
        request.setValue(value, forHTTPHeaderField: "X-Session")
        _ = try await Transport.urlSession(FaultyApp.session()).send(request)
        log.write("first request done")
        started.continuation.yield()
        try await Task.sleep(for: .seconds(60))  // the rest of a long run, cancelled here
        log.write("second half of the run")
      }
    }
    for await _ in started.stream { break }
    run.cancel()
    let (result, report) = await run.value
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.contains { $0.contains("CancellationError") }, "\(report.errors)")
    #expect(report.undelivered.isEmpty, "what ran before the cancellation is still proven")
  }

  @Test("a matrix cancelled mid-run reports every request it could not finish")
  func cancelledMatrixIsInconclusive() async throws {
    let started = AsyncStream<Void>.makeStream()
    let sleepy = Transport { _ in
      started.continuation.yield()
      try await Task.sleep(for: .seconds(60))
      throw TransportDown()
    }
    // The request deadline must not fire before the cancellation on a loaded machine.
    var patient = quiet
    patient.requestDeadline = .seconds(120)
    let run = Task {
      await CanaryTrap.withScope(title: "cancelled-matrix", configuration: patient) { trap in
        trap.memoryLog().write("app started")
        try await trap.runMatrix(through: sleepy, kinds: [.getQuery])
      }
    }
    for await _ in started.stream { break }
    run.cancel()
    let (_, report) = await run.value
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.contains { $0.contains("CancellationError") }, "\(report.errors)")
    #expect(!report.undelivered.isEmpty)
  }
}

import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ingest sink's answers, limits, waiting and windows, over real sockets.
@Suite("Ingest sink: answers, limits and waiting")
struct IngestSinkBehaviourTests {
  @Test("the answers run in order, 429 and 503 with Retry-After, then the last repeats")
  func answersInOrder() async throws {
    let sink = try IngestTestSupport.startedSink(
      answers: [.tooManyRequests(retryAfter: 2), .serviceUnavailable(retryAfter: 1), .accepted])
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    var seen: [(Int, String?)] = []
    for _ in 0..<4 {
      let response = try await IngestTestSupport.upload(
        Data("{}".utf8), to: "/v1/traces", on: sink, session: session)
      seen.append((response.statusCode, response.value(forHTTPHeaderField: "Retry-After")))
    }
    #expect(seen.map(\.0) == [429, 503, 202, 202])
    #expect(seen.map(\.1) == ["2", "1", nil, nil])
    #expect(sink.uploads.map(\.status) == [429, 503, 202, 202])
    sink.answer([.ok])
    let response = try await IngestTestSupport.upload(
      Data(), to: "/", on: sink, method: "PUT", session: session)
    #expect(response.statusCode == 200)
    #expect(sink.uploads.last?.method == "PUT")
  }

  @Test("uploads past the count or byte limit are answered, dropped and counted, and the window says so")
  func dropsPastTheLimit() async throws {
    let sink = try IngestTestSupport.startedSink(limit: IngestSink.Limit(maxUploads: 3, maxBytes: 1 << 20))
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (contents, problem) = try await IngestTestSupport.read(sink) {
      for index in 0..<5 {
        let response = try await IngestTestSupport.upload(
          Data("{\"n\":\(index)}".utf8), to: "/logs", on: sink, session: session)
        #expect(response.statusCode == 200)
      }
    }
    #expect(sink.uploads.count == 3)
    #expect(sink.droppedUploads == 2)
    #expect(sink.droppedBytes > 0)
    #expect(contents.filter { $0.name.hasSuffix(" head") }.count == 3)
    #expect(problem?.contains("ingest sink ingest dropped 2 uploads past its limit of 3 uploads") == true)
  }

  @Test("twin: within the limit nothing is dropped and the window is whole")
  func withinTheLimit() async throws {
    let sink = try IngestTestSupport.startedSink(limit: IngestSink.Limit(maxUploads: 3))
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (_, problem) = try await IngestTestSupport.read(sink) {
      for _ in 0..<3 {
        try await IngestTestSupport.upload(Data("{}".utf8), to: "/logs", on: sink, session: session)
      }
    }
    #expect(problem == nil)
    #expect(sink.droppedUploads == 0)
  }

  @Test("a body past maxUploadBytes is refused with 413 and counted, so the window cannot be clean")
  func oversizedBodyRefused() async throws {
    let sink = try IngestTestSupport.startedSink(limit: IngestSink.Limit(maxUploadBytes: 64 << 10))
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (_, problem) = try await IngestTestSupport.read(sink) {
      let response = try? await IngestTestSupport.upload(
        Data(count: 256 << 10), to: "/big", on: sink, session: session)
      if let response { #expect(response.statusCode == 413) }
    }
    #expect(sink.droppedUploads == 1)
    #expect(
      problem?.contains("refused 1 uploads it could not take (POST /big: body of 262144 bytes exceeds")
        == true)
  }

  @Test("reading waits for an upload that arrives after the scope ends, until uploads settle")
  func waitsForALateFlush() async throws {
    let sink = try IngestTestSupport.startedSink()
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let window = SinkWindow.next()
    try await sink.begin(window)
    // The late flush comes from a thread of its own, as an SDK's timer does, so a suite that
    // keeps every cooperative thread busy cannot hold it back.
    let url = URL(string: sink.url.absoluteString + "/flush")!
    let uploaded = DispatchSemaphore(value: 0)
    Thread {
      Thread.sleep(forTimeInterval: 0.4)
      var request = URLRequest(url: url)
      request.httpMethod = "POST"
      session.uploadTask(with: request, from: Data("late".utf8)) { _, _, _ in uploaded.signal() }.resume()
    }.start()
    let contents = try await sink.collect(window)
    await sink.end(window)
    await Task.detached { uploaded.wait() }.value
    #expect(contents.map(\.name) == ["ingest /flush upload 1 head", "ingest /flush upload 1 body"])
  }

  @Test(
    "twin: a sink nobody uploads to returns nothing once the timeout passes, so the scope calls it silent")
  func nothingArrives() async throws {
    let sink = try IngestTestSupport.startedSink(
      settle: IngestSink.Settle(quiet: .milliseconds(50), timeout: .milliseconds(300)))
    defer { sink.stop() }
    let started = ContinuousClock.now
    let (contents, problem) = try await IngestTestSupport.read(sink) {}
    #expect(contents == [.bytes(Data(), name: "ingest")])
    #expect(problem == nil)
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    let silence = SinkHearing(
      rule: sink.hearingRule, sharedWithAnotherScope: false, heardTracerOrCanary: false, bytes: 0,
      tracer: "t", tracerWasSent: true)
    #expect(silence.silenceReason == "it received nothing during the scope")
  }

  @Test("each window sees only the uploads that arrived while it was open")
  func windowsAreApart() async throws {
    let sink = try IngestTestSupport.startedSink()
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    try await IngestTestSupport.upload(Data("before".utf8), to: "/a", on: sink, session: session)
    let (contents, _) = try await IngestTestSupport.read(sink) {
      try await IngestTestSupport.upload(Data("during".utf8), to: "/b", on: sink, session: session)
    }
    #expect(contents.map(\.name) == ["ingest /b upload 1 head", "ingest /b upload 1 body"])
    #expect(sink.uploads.count == 2)
    #expect(await sink.waitForUploads(count: 2, timeout: .milliseconds(10)).count == 2)
  }
}

/// The whole-life report `canary serve --ingest` writes: drops since the sink was created count.
@Suite("Ingest sink: the whole-life report")
struct IngestSinkReportTests {
  @Test("uploads dropped before the report was asked for make it inconclusive")
  func dropsBeforeTheReportCount() async throws {
    let sink = try IngestTestSupport.startedSink(limit: IngestSink.Limit(maxUploads: 2))
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    for _ in 0..<3 {
      try await IngestTestSupport.upload(Data("{}".utf8), to: "/logs", on: sink, session: session)
    }
    let report = await sink.report(title: "ingest", canaries: [])
    #expect(report.verdict == .inconclusive)
    #expect(
      report.problems.map(\.message).contains { $0.contains("dropped 1 uploads past its limit of 2 uploads") }
    )
  }

  @Test("twin: within the limit the report is clean, and a canary in an upload makes it leaky")
  func withinTheLimit() async throws {
    let canary = Canary(value: IngestTestSupport.canary(), location: .requestURL(.query("session")))
    let sink = try IngestTestSupport.startedSink(limit: IngestSink.Limit(maxUploads: 2))
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    try await IngestTestSupport.upload(Data("{}".utf8), to: "/logs", on: sink, session: session)
    #expect(await sink.report(title: "ingest", canaries: [canary]).verdict == .clean)
    try await IngestTestSupport.upload(
      Data("{\"q\":\"\(canary.value)\"}".utf8), to: "/logs", on: sink, session: session)
    let leaky = await sink.report(title: "ingest", canaries: [canary])
    #expect(leaky.verdict == .leaky)
    #expect(leaky.findings.map(\.source) == ["ingest /logs upload 2 body"])
  }
}

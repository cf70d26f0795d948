import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Informational responses and trailers as request kinds")
struct InterimAndTrailerKindTests {
  /// Logs the status and every header field the transport returned.
  private static func headerLogger(_ base: Transport, into log: MemoryLog) -> Transport {
    Transport { request in
      let (data, response) = try await base.send(request)
      let http = response as? HTTPURLResponse
      log.write("GET \(request.url?.path ?? "") → \(http?.statusCode ?? 0)")
      for (name, value) in http?.allHeaderFields ?? [:] { log.write("  \(name): \(value)") }
      return (data, response)
    }
  }

  @Test("the locations' string forms round-trip; a status outside 1xx is not one")
  func locationsRoundTrip() {
    let hints = CanaryLocation.informationalHeader(status: 103, "Link")
    #expect(hints.description == "response.informational[103].header[Link]")
    #expect(CanaryLocation(hints.description) == hints)
    let trailer = CanaryLocation.responseTrailer("X-Checksum")
    #expect(trailer.description == "response.trailer[X-Checksum]")
    #expect(CanaryLocation(trailer.description) == trailer)
    #expect(
      CanaryLocation("response.informational[200].header[Link]")
        == .custom("response.informational[200].header[Link]"))
    #expect(!hints.isRequestSide && !trailer.isRequestSide)
    #expect(!RequestKind.all.contains { $0.name == "early-hints" || $0.name == "response-trailers" })
    #expect(!RequestKind.streaming.contains { $0.name == "early-hints" || $0.name == "response-trailers" })
  }

  @Test(
    "through URLSession, 103 Early Hints never reach the app: its canary is undelivered, the run not clean")
  func earlyHintsThroughURLSessionAreUndelivered() async throws {
    let result = await CanaryTrap.matrix(
      title: "early-hints-urlsession", configuration: .init(captureStandardStreams: false),
      kinds: [.earlyHints]
    ) { trap in
      Self.headerLogger(.urlSession(TestTransports.session()), into: trap.memoryLog("app-log"))
    }
    let report = try #require(result.report)
    // FoundationNetworking (libcurl) skips the 103 and hands the app the 200 with its own fields
    // only; Apple's URLSession has no API for informational responses either.
    #expect(result.undelivered.map(\.canary.location) == [.informationalHeader(status: 103, "Link")])
    let reason = result.undelivered.first.map { "\($0.status)" } ?? ""
    #expect(reason.contains("header Link of the 103 response"))
    #expect(report.verdict != .clean)
    #expect(report.findings.isEmpty)
  }

  @Test(
    "through a transport that exposes them, a logger of response headers is caught at each location",
    arguments: [RequestKind.earlyHints, .responseTrailers])
  func headerLoggerIsCaught(kind: RequestKind) async throws {
    let result = await CanaryTrap.matrix(
      title: "\(kind.name)-leaky", configuration: .init(captureStandardStreams: false), kinds: [kind]
    ) { trap in
      Self.headerLogger(RawHTTPTransport.transport(port: trap.server.port), into: trap.memoryLog("app-log"))
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(report.leakedLocations == result.coverage.map(\.location))
    #expect(result.coverage.count == 1)
  }

  @Test(
    "through a transport that exposes them, a logger of the status only is clean",
    arguments: [RequestKind.earlyHints, .responseTrailers])
  func carefulLoggerIsClean(kind: RequestKind) async throws {
    let result = await CanaryTrap.matrix(
      title: "\(kind.name)-careful", configuration: .init(captureStandardStreams: false), kinds: [kind]
    ) { trap in
      TestTransports.routeOnly(RawHTTPTransport.transport(port: trap.server.port), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .clean)
  }

  /// Run only as the child of ``trailersStopURLSession()``: fetches the URL it is given.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CANARY_TRAILER_CHILD_URL"] != nil))
  func trailerChild() async throws {
    let url = try #require(ProcessInfo.processInfo.environment["CANARY_TRAILER_CHILD_URL"].flatMap(URL.init))
    let (data, response) = try await TestTransports.session().data(from: url)
    print("child: \((response as? HTTPURLResponse)?.statusCode ?? 0) \(data.count) bytes")
  }

  @Test("FoundationNetworking stops the process on a response with trailers (run in a child process)")
  func trailersStopURLSession() async throws {
    #if os(Linux)
      let server = LoopbackServer()
      server.on(
        .get, "/trailers",
        respond: ServerResponse(
          headers: ["Trailer": "X-Checksum"], body: .chunked([Data("ab".utf8), Data("c".utf8)])
        )
        .trailer("X-Checksum", "sha256-probe"))
      try server.start()
      defer { server.stop() }
      let process = TestProcess()
      process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
      process.arguments = [
        "--testing-library", "swift-testing", "--filter", "InterimAndTrailerKindTests/trailerChild",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["CANARY_TRAILER_CHILD_URL"] =
        server.baseURL.appendingPathComponent("trailers").absoluteString
      environment["SWIFT_BACKTRACE"] = "enable=no"
      process.environment = environment
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try ChildProcessLaunch.run(process)
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(server.requests(to: "/trailers").count == 1)
      #expect(server.responses.first?.fullyWritten == true)
      // When this fails, FoundationNetworking learned to read trailers: see whether it exposes them.
      #expect(process.terminationReason == .uncaughtSignal, "the child ended: \(text.suffix(400))")
      #expect(text.contains("Transfer completed, but there's no response"))
    #endif
  }
}

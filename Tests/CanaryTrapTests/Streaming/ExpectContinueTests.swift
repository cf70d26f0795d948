import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Expect: 100-continue")
struct ExpectContinueTests {
  private static func upload(to port: UInt16, expect: Bool, size: Int, mode: Transport.SessionMode)
    async throws -> Double
  {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/upload")!)
    request.httpMethod = "POST"
    if expect { request.setValue("100-continue", forHTTPHeaderField: "Expect") }
    request.httpBody = Data(repeating: UInt8(ascii: "a"), count: size)
    let start = ContinuousClock.now
    let (data, _) = try await Transport.urlSession(TestTransports.session(), mode: mode).send(request)
    #expect(String(decoding: data, as: UTF8.self) == "ok")
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  #if canImport(FoundationNetworking)
    @Test(
      "FoundationNetworking never asks for 100-continue itself, whatever the body's size or framing",
      arguments: [(Transport.SessionMode.data, 2048), (.data, 2 * 1024 * 1024), (.streamedUpload, 2048)])
    func neverAddedByTheSession(mode: Transport.SessionMode, size: Int) async throws {
      // libcurl 7.88 adds `Expect: 100-continue` to bodies over 1 MiB and to chunked ones;
      // FoundationNetworking turns that off, so only an app that sets the header sends it.
      let probe = try ContinueProbe(holdBack: 0.3)
      _ = try await Self.upload(to: probe.port, expect: false, size: size, mode: mode)
      let seen = try #require(probe.wait())
      #expect(!seen.expectsContinue)
      #expect(seen.earlyBodyBytes >= size, "the body came with the head")
    }
  #endif

  @Test(
    "with the header set, the session waits for 100 Continue before it sends the body",
    arguments: [Transport.SessionMode.data, .streamedUpload])
  func waitsForTheContinue(mode: Transport.SessionMode) async throws {
    let probe = try ContinueProbe(holdBack: 0.4)
    let seconds = try await Self.upload(to: probe.port, expect: true, size: 100, mode: mode)
    let seen = try #require(probe.wait())
    #expect(seen.expectsContinue)
    #expect(seen.earlyBodyBytes == 0, "no body byte came before 100 Continue")
    #expect(seen.body.count >= 100)
    #expect(seconds >= 0.35)
  }

  @Test("with no 100 Continue, the session sends the body anyway after about a second, before the 100")
  func sendsTheBodyWhenNoContinueComes() async throws {
    // libcurl's `CURLOPT_EXPECT_100_TIMEOUT_MS` defaults to 1000 ms; FoundationNetworking keeps it.
    let probe = try ContinueProbe(holdBack: 3)
    let seconds = try await Self.upload(to: probe.port, expect: true, size: 100, mode: .data)
    let seen = try #require(probe.wait())
    #expect(seen.expectsContinue)
    #expect(seen.earlyBodyBytes == 100, "the body came while 100 Continue was held back")
    // It came before the 100 the probe sends after 3 s (early bytes above), however loaded the machine.
    #expect(seconds >= 0.9)
  }

  @Test("through URLSession: a careful logger is clean, every canary delivered after the 100")
  func carefulLoggerIsClean() async throws {
    let serverBox = Locked<LoopbackServer?>(nil)
    let result = await CanaryTrap.matrix(
      title: "expect-continue", configuration: .init(captureStandardStreams: false), kinds: [.expectContinue]
    ) { trap in
      serverBox.withLock { $0 = trap.server }
      return TestTransports.routeOnly(.urlSession(TestTransports.session()), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .clean)
    #expect(
      Set(result.coverage.map(\.location.description))
        == [
          "request.header[X-Upload-Token]", "request.body.json[upload.token]",
          "request.body.json[upload.owner]",
        ])
    let server = try #require(serverBox.current)
    let received = try #require(server.requests.first { $0.method == "PUT" })
    #expect(received.headers["Expect"]?.lowercased() == "100-continue")
    #expect(!received.body.isEmpty)
  }

  @Test("a logger of request bodies is caught at both body locations and the header")
  func bodyLoggerIsCaught() async throws {
    let result = await CanaryTrap.matrix(
      title: "expect-continue-leaky", configuration: .init(captureStandardStreams: false),
      kinds: [.expectContinue]
    ) { trap in
      TestTransports.leaky(.urlSession(TestTransports.session()), into: trap.memoryLog("app-log"))
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(
      Set(report.leakedLocations)
        == [
          .requestHeader("X-Upload-Token"), .requestBody(.json("upload.token")),
          .requestBody(.json("upload.owner")),
        ])
  }

  @Test("a client that sends the head and never the body leaves the body's canaries undelivered")
  func bodyNeverSentIsUndelivered() async throws {
    let result = await CanaryTrap.matrix(
      title: "expect-continue-no-body", configuration: .init(captureStandardStreams: false),
      kinds: [.expectContinue]
    ) { trap in
      let base = TestTransports.routeOnly(.urlSession(TestTransports.session()), into: trap.memoryLog())
      return Transport { request in
        var headOnly = request
        headOnly.httpBody = nil
        return try await base.send(headOnly)
      }
    }
    let report = try #require(result.report)
    #expect(
      Set(result.undelivered.map(\.canary.location))
        == [.requestBody(.json("upload.token")), .requestBody(.json("upload.owner"))])
    #expect(report.verdict != .clean)
  }
}

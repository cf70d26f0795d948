import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Compressed responses")
struct CompressedResponseTests {
  @Test(
    "gzip and deflate bodies decode with the real tools, and hold no plain text",
    arguments: ContentCoding.allCases)
  func encodedBodiesDecodeWithRealTools(coding: ContentCoding) throws {
    let text = "secret cnry_plain_value " + String(repeating: "abcabcabc 0123456789 ", count: 300) + "end"
    let encoded = try coding.encode(Data(text.utf8))
    #expect(encoded.range(of: Data("cnry_plain_value".utf8)) == nil)
    #expect(encoded.count < text.utf8.count / 3, "matches were emitted, not only literals")
    let script =
      coding == .gzip
      ? "import gzip,sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))"
      : "import zlib,sys; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"
    guard ExternalTools.require("python3", for: "the check of the \(coding) encoding against zlib") != nil
    else { return }
    let decoded = try #require(try ExternalTool.run("python3", ["-c", script], input: encoded))
    #expect(String(decoding: decoded, as: UTF8.self) == text)
  }

  @Test("every byte value and an empty body round-trip through zlib", arguments: ContentCoding.allCases)
  func everyByteRoundTrips(coding: ContentCoding) throws {
    let bytes = Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 256) })
    for body in [Data(), bytes] {
      let script =
        "import zlib,sys; d=sys.stdin.buffer.read(); "
        + (coding == .gzip
          ? "sys.stdout.buffer.write(zlib.decompress(d, 31))" : "sys.stdout.buffer.write(zlib.decompress(d))")
      guard
        ExternalTools.require("python3", for: "the round trip of the \(coding) encoding through zlib") != nil
      else { return }
      let decoded = try #require(
        try ExternalTool.run("python3", ["-c", script], input: try coding.encode(body)))
      #expect(decoded == body)
    }
  }

  @Test("a body over the limit is refused with its size, not truncated")
  func bodyOverTheLimitIsRefused() throws {
    let refused = #expect(throws: ContentCoding.TooLarge.self) {
      try ContentCoding.gzip.encode(Data(count: 11), limit: 10)
    }
    #expect(refused.map { ($0.bytes, $0.limit) } ?? (0, 0) == (11, 10))
    #expect(refused?.description == "a body of 11 bytes is over the 10-byte limit for compressed responses")
    let refusedResponse = #expect(throws: ContentCoding.TooLarge.self) {
      try ServerResponse.text("0123456789\n").encoded(.deflate, limit: 10)
    }
    #expect(refusedResponse?.bytes == 11)
    #expect(try ContentCoding.gzip.encode(Data(count: 10), limit: 10).count > 10)
  }

  @Test("through URLSession: delivered from the decoded bodies, and the wire holds them compressed")
  func deliveredThroughURLSession() async throws {
    let serverBox = Locked<LoopbackServer?>(nil)
    let result = await CanaryTrap.matrix(
      title: "compressed", configuration: .init(captureStandardStreams: false), kinds: [.compressedResponse]
    ) { trap in
      serverBox.withLock { $0 = trap.server }
      return TestTransports.routeOnly(.urlSession(TestTransports.session()), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .clean)
    #expect(
      Set(result.coverage.map(\.location.description))
        == ["response.body.json[gzip.session]", "response.body.json[deflate.refresh]"])
    let responses = try #require(serverBox.current).responses
    #expect(responses.count == 2)
    for row in result.coverage {
      #expect(!responses.contains { $0.contains(row.canary.value) }, "\(row.location) went out uncompressed")
    }
    #expect(responses.allSatisfy { $0.contains("Content-Encoding: ") })
  }

  @Test("a logger of decoded bodies is caught at each compressed body's location")
  func loggerOfDecodedBodiesIsCaught() async throws {
    let result = await CanaryTrap.matrix(
      title: "compressed-leaky", configuration: .init(captureStandardStreams: false),
      kinds: [.compressedResponse]
    ) { trap in
      let log = trap.memoryLog("app-log")
      return Transport { request in
        let (data, response) = try await Transport.urlSession(TestTransports.session()).send(request)
        log.write(
          "\(request.httpMethod ?? "GET") \(request.url?.path ?? "") body: \(String(decoding: data, as: UTF8.self))"
        )
        return (data, response)
      }
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(
      Set(report.leakedLocations)
        == [.responseBody(.json("gzip.session")), .responseBody(.json("deflate.refresh"))])
  }

  @Test("an app that never decodes the body is inconclusive, not clean: the canaries were not delivered")
  func undecodedBodiesAreNotDelivered() async throws {
    let result = await CanaryTrap.matrix(
      title: "compressed-undecoded", configuration: .init(captureStandardStreams: false),
      kinds: [.compressedResponse]
    ) { trap in
      let base = TestTransports.routeOnly(.urlSession(TestTransports.session()), into: trap.memoryLog())
      // What an app reading the raw entity would hold: the body compressed again.
      return Transport { request in
        let (data, response) = try await base.send(request)
        return (try ContentCoding.gzip.encode(data), response)
      }
    }
    let report = try #require(result.report)
    #expect(result.undelivered.count == 2)
    #expect(report.verdict != .clean)
  }
}

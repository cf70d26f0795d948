import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Uploads from a file and from a stream")
struct UploadModeTests {
  @Test(
    "a logger of request bodies is caught at every body location, whichever way the body is sent",
    arguments: [Transport.SessionMode.uploadFromFile, .streamedUpload])
  func bodyLoggerIsCaught(mode: Transport.SessionMode) async throws {
    let result = await CanaryTrap.matrix(
      title: "upload-\(mode)", configuration: .init(captureStandardStreams: false),
      kinds: [.postJSON, .postForm, .plainText]
    ) { trap in
      let log = trap.memoryLog("app-log")
      let base = Transport.urlSession(TestTransports.session(), mode: mode)
      return Transport { request in
        log.write(
          "upload \(request.url?.path ?? ""): \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))")
        return try await base.send(request)
      }
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .leaky)
    #expect(Set(report.leakedLocations) == Set(result.coverage.map(\.location)))
  }

  @Test("a streamed body goes chunked, and one sent with Expect: 100-continue arrives whole")
  func streamedBodyIsChunkedAndContinued() async throws {
    let server = LoopbackServer()
    server.on(.post, "/upload") { request in .text("got \(request.body.count) bytes") }
    try server.start()
    defer { server.stop() }
    let body = Data(String(repeating: "0123456789abcdef", count: 8192).utf8)
    var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
    request.httpMethod = "POST"
    request.setValue("100-continue", forHTTPHeaderField: "Expect")
    request.httpBody = body
    let (data, response) = try await Transport.urlSession(TestTransports.session(), mode: .streamedUpload)
      .send(
        request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self) == "got \(body.count) bytes")
    let received = try #require(server.requests(to: "/upload").first)
    #expect(received.body == body)
    #expect(received.headers["Transfer-Encoding"]?.lowercased() == "chunked")
    #expect(received.headers["Expect"]?.lowercased() == "100-continue")
    #expect(server.responses.count == 1)
  }
}

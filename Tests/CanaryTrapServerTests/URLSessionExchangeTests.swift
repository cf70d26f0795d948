import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Loopback server exchanges through URLSession")
struct URLSessionExchangeTests {
  @Test func formBodyIsDecoded() async throws {
    let server = try makeServer()
    defer { server.stop() }
    var request = URLRequest(url: server.baseURL.appendingPathComponent("form"))
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data("user=ann+lee&secret=cnry%2Fabc%3D".utf8)
    _ = try await send(request, session: makeSession())
    let recorded = try #require(server.requests.first)
    #expect(recorded.formFields.map(\.name) == ["user", "secret"])
    #expect(recorded.formFields.map(\.value) == ["ann lee", "cnry/abc="])
  }

  @Test func multipartUploadIsParsed() async throws {
    let server = try makeServer()
    defer { server.stop() }
    let boundary = "----cnry boundary:42"
    var body = Data()
    body.append(
      Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello field\r\n".utf8))
    body.append(
      Data(
        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"cnry-file.png\"\r\n"
          + "Content-Type: image/png\r\n\r\n").utf8))
    body.append(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x00, 0xFF]))
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
    request.httpMethod = "POST"
    request.setValue("multipart/form-data; boundary=\"\(boundary)\"", forHTTPHeaderField: "Content-Type")
    let (_, response) = try await makeSession().upload(for: request, from: body)
    #expect((response as? HTTPURLResponse)?.statusCode == 404)
    let multipart = try #require(server.requests.first?.multipart)
    #expect(multipart.field("note") == "hello field")
    let file = try #require(multipart.part(named: "avatar"))
    #expect(file.filename == "cnry-file.png")
    #expect(file.contentType == "image/png")
    #expect(file.body == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x00, 0xFF]))
  }

  @Test(arguments: [301, 302, 303, 307, 308])
  func redirectIsFollowedToTheFinalURL(_ status: Int) async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.any, "/start", respond: .redirect(status, to: "/hop?sig=cnry-sig-\(status)"))
    server.on(.any, "/hop", respond: .redirect(status, to: "\(server.baseURL)/final/cnry-path?done=1"))
    server.on(.any, "/final/cnry-path") { request in .text("final \(request.method)") }
    var request = URLRequest(url: server.baseURL.appendingPathComponent("start"))
    request.httpMethod = "POST"
    request.httpBody = Data("x=1".utf8)
    let (data, response) = try await send(request, session: makeSession())
    #expect(response.statusCode == 200)
    #expect(response.url?.path == "/final/cnry-path")
    #expect(server.requests.map(\.path) == ["/start", "/hop", "/final/cnry-path"])
    #expect(server.requests[1].queryItem("sig") == "cnry-sig-\(status)")
    let finalMethod = String(decoding: data, as: UTF8.self)
    if status == 307 || status == 308 { #expect(finalMethod == "final POST") }
    if status == 303 { #expect(finalMethod == "final GET") }
  }

  @Test func cookiesAreSetAndSentBack() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(
      .get, "/login",
      respond: .text("ok").header("Set-Cookie", "sid=cnry-sid-111111; Path=/")
        .header("Set-Cookie", "pref=cnry-pref-22222; Path=/"))
    let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: UUID().uuidString)
    let session = makeSession(cookies: storage)
    _ = try await send(URLRequest(url: server.baseURL.appendingPathComponent("login")), session: session)
    _ = try await send(URLRequest(url: server.baseURL.appendingPathComponent("me")), session: session)
    let second = try #require(server.requests.last)
    let cookies = Dictionary(uniqueKeysWithValues: second.cookies.map { ($0.name, $0.value) })
    #expect(cookies["sid"] == "cnry-sid-111111")
    #expect(cookies["pref"] == "cnry-pref-22222")
  }

  @Test func largeUploadArrivesWhole() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.put, "/big") { .text("\($0.body.count)") }
    var request = URLRequest(url: server.baseURL.appendingPathComponent("big"))
    request.httpMethod = "PUT"
    let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    let (data, _) = try await makeSession().upload(for: request, from: payload)
    #expect(String(decoding: data, as: UTF8.self) == "300000")
    #expect(server.requests.first?.body == payload)
  }

  @Test func streamedRequestBodyIsSentChunkedAndDechunked() async throws {
    let server = try makeServer()
    defer { server.stop() }
    let payload = Data(String(repeating: "cnry-stream-", count: 500).utf8)
    var request = URLRequest(url: server.baseURL.appendingPathComponent("stream"))
    request.httpMethod = "POST"
    request.httpBodyStream = InputStream(data: payload)
    _ = try await send(request, session: makeSession())
    let recorded = try #require(server.requests.first)
    #expect(recorded.body == payload)
    #expect(recorded.headers["Transfer-Encoding"]?.lowercased() == "chunked")
  }

  @Test func chunkedResponseWithCustomReasonAndRepeatedHeaders() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(
      .get, "/chunks",
      respond: ServerResponse(
        status: 299, reason: "Canary Custom", headers: ["X-Token": "cnry-a", "X-Token": "cnry-b"],
        body: .chunked([Data("part one, ".utf8), Data(), Data("part two".utf8)])))
    let (data, response) = try await send(
      URLRequest(url: server.baseURL.appendingPathComponent("chunks")), session: makeSession())
    #expect(response.statusCode == 299)
    #expect(String(decoding: data, as: UTF8.self) == "part one, part two")
    #expect((response.value(forHTTPHeaderField: "X-Token") ?? "").contains("cnry-a"))
  }

  @Test func responsesAreLoggedAsFullyWritten() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/token", respond: .json(["token": "cnry-response-777777"]).header("X-Echo", "cnry-h-1"))
    _ = try await send(
      URLRequest(url: server.baseURL.appendingPathComponent("token")), session: makeSession())
    // The client can read the last byte before the I/O thread notes that its write finished.
    for _ in 0..<200 where server.responses.first?.fullyWritten != true {
      try await Task.sleep(for: .milliseconds(5))
    }
    let sent = try #require(server.responses.first)
    #expect(sent.fullyWritten)
    #expect(sent.status == 200)
    #expect(sent.requestSequence == server.requests.first?.sequence)
    #expect(sent.contains("cnry-response-777777"))
    #expect(sent.contains("X-Echo: cnry-h-1"))
  }

  @Test(arguments: [ServerResponse.Fault.closeMidBody, .closeBeforeResponse, .reset])
  func faultMakesURLSessionFail(_ fault: ServerResponse.Fault) async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/broken", respond: .text(String(repeating: "x", count: 1000)).failing(with: fault))
    await #expect(throws: (any Error).self) {
      _ = try await send(
        URLRequest(url: server.baseURL.appendingPathComponent("broken")), session: makeSession())
    }
    #expect(server.requests(to: "/broken").count >= 1)
    let sent = try #require(server.responses.first)
    #expect(sent.fault == fault)
    #expect(!sent.fullyWritten)
  }

  @Test func delayedResponseDoesNotStallOtherClients() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/slow", respond: ServerResponse.text("slow").delayed(by: .milliseconds(700)))
    server.on(.get, "/fast", respond: .text("fast"))
    let session = makeSession()
    async let slow = send(URLRequest(url: server.baseURL.appendingPathComponent("slow")), session: session)
    try await Task.sleep(for: .milliseconds(50))
    let (fast, _) = try await send(
      URLRequest(url: server.baseURL.appendingPathComponent("fast")), session: session)
    #expect(String(decoding: fast, as: UTF8.self) == "fast")
    let slowResponded = try await slow
    #expect(String(decoding: slowResponded.0, as: UTF8.self) == "slow")
    // The fast request arrived (and was answered) before the slow one finished.
    #expect(server.requests.map(\.path) == ["/slow", "/fast"])
  }

  /// FoundationNetworking refuses `http://[::1]:port` URLs (NSURLErrorBadURL), so a raw client
  /// proves the IPv6 listener.
  @Test func ipv6LoopbackWorksWhenAsked() throws {
    let server: LoopbackServer
    do {
      server = try makeServer { $0.host = .ipv6 }
    } catch {
      DidNotRun.record("no IPv6 loopback on this machine (\(error)): the IPv6 listener was not tested")
      return
    }
    defer { server.stop() }
    #expect(server.boundAddress == "::1")
    #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
    let client = try RawClient(port: server.port, ipv6: true)
    client.send("GET /v6 HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasPrefix("HTTP/1.1 404 Not Found\r\n") == true)
    #expect(server.requests.first?.path == "/v6")
  }
}

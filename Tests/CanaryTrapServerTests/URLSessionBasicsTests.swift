import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Loopback server with a real URLSession")
struct URLSessionBasicsTests {
  @Test func getWithQueryIsRecordedAndAnswered() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/search") { request in .text("hello \(request.queryItem("q") ?? "-")") }
    let url = URL(string: "\(server.baseURL)/search?q=cnry%20one&lang=en")!
    let (data, response) = try await send(URLRequest(url: url), session: makeSession())
    #expect(response.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self) == "hello cnry one")
    let recorded = try #require(server.requests.first)
    #expect(recorded.method == "GET")
    #expect(recorded.path == "/search")
    #expect(recorded.query == "q=cnry%20one&lang=en")
    #expect(recorded.queryItems.map(\.name) == ["q", "lang"])
    #expect(recorded.malformed == nil)
    #expect(
      String(decoding: recorded.raw, as: UTF8.self).hasPrefix("GET /search?q=cnry%20one&lang=en HTTP/1.1\r\n")
    )
  }

  @Test func postJSONBodyArrivesIntact() async throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.post, "/signin") { _ in .json(["access_token": "cnry-token-123456"], status: 201) }
    var request = URLRequest(url: server.baseURL.appendingPathComponent("signin"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("cnry-session-abcdef", forHTTPHeaderField: "X-Session")
    request.httpBody = Data(#"{"password":"cnry-pass-987654"}"#.utf8)
    let (data, response) = try await send(request, session: makeSession())
    #expect(response.statusCode == 201)
    #expect(String(decoding: data, as: UTF8.self) == #"{"access_token":"cnry-token-123456"}"#)
    let recorded = try #require(server.requests(to: "/signin").first)
    #expect(recorded.bodyText == #"{"password":"cnry-pass-987654"}"#)
    #expect(recorded.headers["x-session"] == "cnry-session-abcdef")
    #expect(recorded.raw.count > recorded.body.count)
  }

  @Test func unknownPathGetsFallback404AndIsStillRecorded() async throws {
    let server = try makeServer()
    defer { server.stop() }
    let (_, response) = try await send(
      URLRequest(url: server.baseURL.appendingPathComponent("nowhere")), session: makeSession())
    #expect(response.statusCode == 404)
    #expect(server.requests.map(\.path) == ["/nowhere"])
  }

  @Test func serverBindsOnlyLoopbackOnAnEphemeralPort() throws {
    let server = try makeServer()
    defer { server.stop() }
    #expect(server.port != 0)
    #expect(server.boundAddress == "127.0.0.1")
    #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
  }
}

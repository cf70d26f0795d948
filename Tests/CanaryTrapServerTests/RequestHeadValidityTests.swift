import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// RFC 9112 over real sockets: a request whose `Host` is missing (HTTP/1.1) or repeated, whose
/// `Content-Length` is repeated or a list (even of equal values), or whose header or trailer
/// value holds NUL or a bare CR is answered 400 and its connection closed before anything sent
/// after it is read; the valid form next to each is answered 200 and keeps its connection.
@Suite("Request heads RFC 9112 refuses")
struct RequestHeadValidityTests {
  static let refused: [(request: String, reason: String)] = [
    ("GET / HTTP/1.1\r\n\r\n", "an HTTP/1.1 request without Host"),
    ("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", "more than one Host field"),
    ("GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n", "more than one Host field"),
    (
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
      "more than one Content-Length field"
    ),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc", "invalid Content-Length"),
    ("GET / HTTP/1.1\r\nHost: a\r\nX-Token: a\u{0}b\r\n\r\n", "NUL in a header line"),
    ("GET / HTTP/1.1\r\nHost: a\u{0}\r\n\r\n", "NUL in a header line"),
    ("GET / HTTP/1.1\r\nHost: a\r\nX-Token: a\rb\r\n\r\n", "bare CR in a header line"),
    (
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: a\u{0}b\r\n\r\n",
      "trailer: NUL in a header line"
    ),
  ]

  @Test(arguments: refused)
  func isAnswered400AndItsConnectionClosed(request: String, reason: String) throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.any, "/next", respond: .text("next"))
    let client = try RawClient(port: server.port)
    // A request after it on the same connection is never read.
    client.send(request + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n")
    let reply = client.readToEnd()
    #expect(reply.text.hasPrefix("HTTP/1.1 400 "), "\(reply.text)")
    #expect(reply.text.contains("Connection: close"))
    #expect(reply.closed)
    #expect(server.requests.count == 1)
    #expect(server.requests.first?.malformed == reason, "\(server.requests)")
    #expect(!server.requests.contains { $0.path == "/next" })
  }

  static let accepted: [String] = [
    "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "GET / HTTP/1.1\r\nhost: a\r\n\r\n",
    "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc",
    "GET / HTTP/1.1\r\nHost: a\r\nX-Token: a\tb \u{80}\r\n\r\n",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Trailer: ab\r\n\r\n",
  ]

  @Test(arguments: accepted)
  func theValidFormIsAnswered200AndKeepsItsConnection(request: String) throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.any, "/", respond: .text("ok"))
    server.on(.any, "/next", respond: .text("next"))
    let client = try RawClient(port: server.port)
    client.send(request)
    #expect(client.readResponse()?.hasPrefix("HTTP/1.1 200 ") == true)
    client.send("GET /next HTTP/1.1\r\nHost: a\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("next") == true)
    #expect(server.requests.map(\.malformed) == [nil, nil])
  }
}

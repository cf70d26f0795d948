import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

@Suite("Loopback server over raw sockets")
struct RawSocketServerTests {
  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/slow", respond: ServerResponse.text("first").delayed(by: .milliseconds(100)))
    server.on(.post, "/second") { .text("second:\($0.bodyText)") }
    let client = try RawClient(port: server.port)
    client.send(
      "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nPOST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET /third HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    let responses = try #require(client.readResponses(3))
    #expect(responses[0].hasSuffix("first"))
    #expect(responses[1].hasSuffix("second:hi"))
    #expect(responses[2].hasPrefix("HTTP/1.1 404"))
    #expect(Set(server.requests.map(\.connectionID)).count == 1)
    #expect(server.requests.map(\.sequence) == [0, 1, 2])
  }

  @Test func expectContinueGets100BeforeTheBodyIsSent() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.put, "/upload") { .text("got \($0.body.count)") }
    let client = try RawClient(port: server.port)
    client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
    let interim = try #require(client.readResponse())
    #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
    client.send("hello")
    #expect(client.readResponse()?.hasSuffix("got 5") == true)
  }

  @Test func expectContinueWithOversizedBodyGets413() throws {
    let server = try makeServer { $0.maxBodyBytes = 100 }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
    let reply = client.readToEnd()
    #expect(reply.text.hasPrefix("HTTP/1.1 413 "))
    #expect(reply.closed)
    #expect(server.requests.first?.malformed?.contains("exceeds") == true)
  }

  @Test(arguments: [
    ("BROKEN\r\n\r\n", "400"), ("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", "400"),
    ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", "400"),
    ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 3000))\r\n\r\n", "431"),
    ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 999999\r\n\r\n", "413"),
  ])
  func badInputGetsItsStatusIsRecordedAndOthersAreServed(_ input: String, _ status: String) throws {
    let server = try makeServer {
      $0.maxHeaderBytes = 2048
      $0.maxBodyBytes = 4096
    }
    defer { server.stop() }
    let bystander = try RawClient(port: server.port)
    let client = try RawClient(port: server.port)
    client.send(input)
    let reply = client.readToEnd()
    #expect(reply.text.hasPrefix("HTTP/1.1 \(status) "))
    #expect(reply.text.contains("Connection: close"))
    #expect(reply.closed)
    let malformed = try #require(server.requests.first)
    #expect(malformed.malformed != nil)
    #expect(!malformed.raw.isEmpty)
    bystander.send("GET /still-ok HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(bystander.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
  }

  @Test func nonUTF8HeaderBytesAreKeptRaw() throws {
    let server = try makeServer()
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    let bytes = Array("GET /bin HTTP/1.1\r\nHost: x\r\nX-Latin: caf".utf8) + [0xE9] + Array("\r\n\r\n".utf8)
    client.send(bytes)
    #expect(client.readResponse() != nil)
    let recorded = try #require(server.requests.first)
    #expect(Array(recorded.raw) == bytes)
    #expect(recorded.headers["X-Latin"] == "caf\u{FFFD}")
    #expect(recorded.malformed == nil)
  }

  @Test func halfARequestThenSilenceIsTimedOutAndRecorded() throws {
    let server = try makeServer { $0.requestBodyTimeout = .milliseconds(150) }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("POST /half HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
    let reply = client.readToEnd()
    #expect(reply.closed)
    #expect(reply.text.hasPrefix("HTTP/1.1 408 "))
    let recorded = try #require(server.requests.first)
    #expect(recorded.malformed?.contains("request body not complete") == true)
    #expect(server.counters.requestsTimedOut == 1)
    #expect(recorded.path == "/half")
  }

  @Test func idleKeepAliveConnectionIsClosedQuietly() throws {
    let server = try makeServer { $0.idleTimeout = .milliseconds(100) }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse() != nil)
    let rest = client.readToEnd()
    #expect(rest.closed)
    #expect(rest.text.isEmpty)
    #expect(server.requests.count == 1)
  }

  @Test func clientDisconnectingMidBodyIsRecordedAsMalformed() async throws {
    let server = try makeServer()
    defer { server.stop() }
    do {
      let client = try RawClient(port: server.port)
      client.send("POST /cut HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\npartial")
    }
    let cut = try #require(await server.waitForRequests(count: 1).first)
    #expect(cut.malformed?.contains("mid-body") == true)
    #expect(cut.path == "/cut")
    #expect(String(decoding: cut.raw, as: UTF8.self).hasSuffix("partial"))
  }

  @Test func http10AndConnectionCloseEndTheConnection() throws {
    let server = try makeServer()
    defer { server.stop() }
    let old = try RawClient(port: server.port)
    old.send("GET /old HTTP/1.0\r\n\r\n")
    let oldReply = old.readToEnd()
    #expect(oldReply.closed && oldReply.text.contains("Connection: close"))
    let closing = try RawClient(port: server.port)
    closing.send(
      "GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: x\r\n\r\n")
    let reply = closing.readToEnd()
    #expect(reply.closed && reply.text.components(separatedBy: "HTTP/1.1 404").count == 2)
    let keep = try RawClient(port: server.port)
    keep.send("GET /k HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /k2 HTTP/1.0\r\n\r\n")
    #expect(keep.readResponses(2)?.first?.contains("Connection: keep-alive") == true)
  }

  @Test func headResponseHasLengthButNoBody() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.head, "/h", respond: .text("twelve bytes"))
    let client = try RawClient(port: server.port)
    client.send("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nHEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let reply = client.readToEnd().text
    #expect(reply.components(separatedBy: "Content-Length: 12\r\n").count == 3)
    #expect(!reply.contains("twelve bytes"))
  }

  @Test func thousandConnectionsAtOnceAreAllServed() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/many") { .text("n=\($0.queryItem("n") ?? "")") }
    let clients = try (0..<1000).map { _ in try RawClient(port: server.port, receiveTimeout: 10) }
    for (index, client) in clients.enumerated() {
      client.send("GET /many?n=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
    }
    var served = 0
    for (index, client) in clients.enumerated() where client.readResponse()?.hasSuffix("n=\(index)") == true {
      served += 1
    }
    #expect(served == 1000)
    #expect(Set(server.requests.map(\.connectionID)).count == 1000)
  }

  @Test func pollFallbackServesRequestsToo() throws {
    let server = try makeServer { $0.usePollInsteadOfEpoll = true }
    defer { server.stop() }
    let clients = try (0..<3).map { _ in try RawClient(port: server.port) }
    for client in clients {
      client.send("GET /p HTTP/1.1\r\nHost: x\r\n\r\nGET /q HTTP/1.1\r\nHost: x\r\n\r\n")
    }
    #expect(clients.allSatisfy { $0.readResponses(2) != nil })
    #expect(server.requests.count == 6)
  }

  @Test func stopClosesEveryConnectionAndRefusesNewOnes() throws {
    let server = try makeServer()
    let client = try RawClient(port: server.port)
    client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse() != nil)
    server.stop()
    server.stop()
    #expect(client.readToEnd().closed)
    #expect(throws: SocketError.self) { try RawClient(port: server.port) }
    #expect(!server.isRunning)
  }

  @Test func deinitOfARunningServerStopsIt() throws {
    var port: UInt16 = 0
    do {
      let server = try makeServer()
      port = server.port
    }
    #expect(throws: SocketError.self) { try RawClient(port: port) }
  }
}

@Suite("Loopback server over raw sockets: bodies")
struct RawSocketBodyTests {
  @Test func chunkedRequestWithTrailersIsRecorded() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.post, "/chunked") { .text("len=\($0.body.count)") }
    let client = try RawClient(port: server.port)
    client.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n6\r\ncnry-a\r\n")
    client.send("7;note=x\r\n-cnry-b\r\n0\r\nX-Trailer-Secret: cnry-trailer\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("len=13") == true)
    let recorded = try #require(server.requests.first)
    #expect(recorded.bodyText == "cnry-a-cnry-b")
    #expect(recorded.trailers["x-trailer-secret"] == "cnry-trailer")
  }

  @Test func largeResponseReachesASlowReaderWhileOthersAreServed() throws {
    let server = try makeServer()
    defer { server.stop() }
    let big = String(repeating: "0123456789abcdef", count: 256 * 1024)  // 4 MiB
    server.on(.get, "/big", respond: .text(big))
    let slow = try RawClient(port: server.port)
    slow.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    let other = try RawClient(port: server.port)
    other.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(other.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
    #expect(slow.readResponse()?.hasSuffix(String(big.suffix(64))) == true)
  }
}

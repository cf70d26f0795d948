import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// The behaviour the server's per-request fast paths must keep: one route lookup, fixed
/// answers serialized once, no response record for requests not kept, the loop's own clock and
/// connections found by descriptor.
@Suite("Server hot path keeps its behaviour")
struct HotPathTests {
  @Test func manyKeepAliveRequestsAreRecordedInOrderWithTheirAnswers() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/", respond: .text("fixed"))
    let client = try RawClient(port: server.port)
    for index in 0..<300 {
      client.send("GET /?n=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      let response = try #require(client.readResponse())
      #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(response.hasSuffix("\r\n\r\nfixed"))
      #expect(!response.contains("Connection:"))
    }
    let requests = server.requests
    #expect(requests.count == 300)
    #expect(requests.map(\.sequence) == Array(0..<300))
    #expect(requests.map { $0.queryItem("n") } == (0..<300).map { String($0) })
    #expect(Set(requests.map(\.connectionID)).count == 1)
    waitUntilResponsesWritten(server)
    let responses = server.responses
    #expect(responses.map(\.requestSequence) == Array(0..<300))
    #expect(responses.allSatisfy { $0.fullyWritten && $0.status == 200 && $0.contains("fixed") })
    #expect(server.counters.requestsReceived == 300)
    #expect(server.counters.recordIsComplete)
  }

  @Test func pipelinedKeepAliveRequestsAreRecordedInOrder() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/", respond: .text("fixed"))
    let client = try RawClient(port: server.port)
    let count = 100
    client.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: count))
    let responses = try #require(client.readResponses(count))
    #expect(responses.allSatisfy { $0.hasSuffix("fixed") })
    #expect(server.requests.map(\.sequence) == Array(0..<count))
    #expect(server.responses.map(\.requestSequence) == Array(0..<count))
  }

  @Test func aPercentEncodedPathIsStillDecodedToFindItsRoute() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/a b") { _ in .text("spaced") }
    server.on(.any, "/ü", respond: .text("umlaut"))
    let client = try RawClient(port: server.port)
    client.send("GET /a%20b HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("spaced") == true)
    client.send("POST /%C3%BC HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("umlaut") == true)
    client.send("GET /a%2 HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
    #expect(server.requests.map(\.path) == ["/a%20b", "/%C3%BC", "/a%2"])
  }

  @Test func anExactRouteWinsOverAnyMethodAndTheFallbackAnswersTheRest() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.any, "/r", respond: .text("any"))
    server.on(.get, "/r", respond: .text("get"))
    server.setFallback { .text("fallback \($0.path)", status: 418) }
    let client = try RawClient(port: server.port)
    client.send("GET /r HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("get") == true)
    client.send("DELETE /r HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("any") == true)
    client.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
    let fallback = try #require(client.readResponse())
    #expect(fallback.hasPrefix("HTTP/1.1 418 "))
    #expect(fallback.hasSuffix("fallback /other"))
  }

  @Test func aFixedAnswerStillFollowsTheRequestMethodVersionAndConnection() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/f", respond: .text("fixed"))
    server.on(.head, "/f", respond: .text("fixed"))
    let client = try RawClient(port: server.port)
    client.send("GET /f HTTP/1.1\r\nHost: x\r\n\r\n")
    let first = try #require(client.readResponse())
    client.send("GET /f HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse() == first)
    let old = try RawClient(port: server.port)
    old.send("GET /f HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    let keptOld = try #require(old.readResponse())
    #expect(keptOld.contains("Connection: keep-alive\r\n"))
    #expect(keptOld.hasSuffix("fixed"))
    let closing = try RawClient(port: server.port)
    closing.send("GET /f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let reply = closing.readToEnd()
    #expect(reply.text.contains("Connection: close\r\n"))
    #expect(reply.text.hasSuffix("fixed"))
    #expect(reply.closed)
    let heads = try RawClient(port: server.port)
    heads.send("HEAD /f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let headReply = heads.readToEnd()
    #expect(headReply.text.contains("Content-Length: 5\r\n"))
    #expect(headReply.text.hasSuffix("\r\n\r\n"))
    #expect(server.responses.map { String(decoding: $0.bytes, as: UTF8.self) }.first == first)
  }

  @Test func requestsPastTheRecordAreCountedAndTheirAnswersStillObserved() throws {
    let server = try makeServer { $0.maxRecordedRequests = 2 }
    defer { server.stop() }
    server.on(.get, "/", respond: .text("fixed"))
    let written = Locked([Int]())
    let seen = Locked([Int]())
    server.observeRecord { event in
      switch event {
      case .request(let request): seen.withLock { $0.append(request.sequence) }
      case .responseWritten(let response): written.withLock { $0.append(response.requestSequence) }
      }
    }
    let client = try RawClient(port: server.port)
    for _ in 0..<5 {
      client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse()?.hasSuffix("fixed") == true)
    }
    #expect(server.requests.map(\.sequence) == [0, 1])
    waitUntilResponsesWritten(server)
    #expect(server.responses.map(\.requestSequence) == [0, 1])
    #expect(server.responses.allSatisfy { $0.fullyWritten })
    #expect(server.counters.requestsReceived == 5)
    #expect(server.counters.requestsDropped == 3)
    #expect(seen.current == [0, 1, 2, 3, 4])
    waitUntil { written.current.count == 5 }
    #expect(written.current == [0, 1, 2, 3, 4])
  }

  @Test func unrecordedFixedAnswersAreNumberedAndCountedWithoutARecord() throws {
    let server = try makeServer { $0.maxRecordedRequests = 2 }
    defer { server.stop() }
    server.on(.get, "/", respond: .text("fixed"))
    let handled = Locked([Int]())
    server.on(.get, "/handler") { request in
      handled.withLock { $0.append(request.sequence) }
      return .text("handled")
    }
    let client = try RawClient(port: server.port)
    for _ in 0..<5 {
      client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse()?.hasSuffix("fixed") == true)
    }
    // Requests 2–4 took the path that builds no RecordedRequest; the numbering went on through it.
    client.send("GET /handler HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("handled") == true)
    #expect(handled.current == [5])
    let seen = Locked([Int]())
    server.observeRecord { event in
      if case .request(let request) = event { seen.withLock { $0.append(request.sequence) } }
    }
    client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("fixed") == true)
    #expect(seen.current == [6])
    #expect(server.requests.map(\.sequence) == [0, 1])
    #expect(server.counters.requestsReceived == 7)
    #expect(server.counters.requestsDropped == 5)
  }

  @Test func withRecordingOffFixedAnswersAreCountedNotDropped() throws {
    let server = try makeServer { $0.recordsRequests = false }
    defer { server.stop() }
    server.on(.get, "/", respond: .text("fixed"))
    let client = try RawClient(port: server.port)
    for _ in 0..<3 {
      client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse()?.hasSuffix("fixed") == true)
    }
    #expect(server.requests.isEmpty)
    #expect(server.counters.requestsReceived == 3)
    #expect(server.counters.requestsDropped == 0)
  }

  @Test func aRouteChangedAfterRepeatedRequestsAnswersTheNextOne() throws {
    let server = try makeServer()
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    func get(_ path: String) -> String? {
      client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
      return client.readResponse()
    }
    // Each change comes after the same request was resolved twice (and so remembered); a plain
    // GET to a WebSocket route is answered 426.
    #expect(get("/x")?.hasSuffix("no route\n") == true)
    #expect(get("/x")?.hasSuffix("no route\n") == true)
    server.on(.get, "/x", respond: .text("first"))
    #expect(get("/x")?.hasSuffix("first") == true)
    #expect(get("/x")?.hasSuffix("first") == true)
    server.on(.get, "/x") { _ in .text("second") }
    #expect(get("/x")?.hasSuffix("second") == true)
    #expect(get("/y")?.hasSuffix("no route\n") == true)
    server.setFallback { _ in .text("fallback", status: 404) }
    #expect(get("/y")?.hasSuffix("fallback") == true)
    server.onWebSocket("/x", script: WebSocketScript())
    let refused = get("/x")
    #expect(refused?.hasPrefix("HTTP/1.1 426") == true, "\(refused ?? "no answer")")
    #expect(refused?.contains("Upgrade: websocket\r\n") == true)
  }

  @Test func aDelayedAnswerStillWaitsForItsDelay() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/late", respond: ServerResponse.text("late").delayed(by: .milliseconds(150)))
    let client = try RawClient(port: server.port)
    let start = ContinuousClock.now
    client.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(client.readResponse()?.hasSuffix("late") == true)
    #expect(ContinuousClock.now - start >= .milliseconds(150))
  }

  @Test func connectionsOpenedAndClosedInTurnAreEachServedAndKeptApart() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/", respond: .text("fixed"))
    var kept: [RawClient] = []
    for round in 0..<40 {
      let client = try RawClient(port: server.port)
      client.send("GET /?round=\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse()?.hasSuffix("fixed") == true)
      // Every other client stays open, so descriptors are reused while others are held.
      if round.isMultiple(of: 2) { kept.append(client) }
    }
    for (index, client) in kept.enumerated() {
      client.send("GET /?again=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse()?.hasSuffix("fixed") == true)
    }
    let requests = server.requests
    #expect(requests.count == 60)
    #expect(Set(requests.prefix(40).map(\.connectionID)).count == 40)
    let again = requests.suffix(20).map(\.connectionID)
    #expect(again == (0..<20).map { requests[$0 * 2].connectionID })
  }

  @Test func theConnectionTableFindsCountsAndForgetsByDescriptor() {
    let limits = HTTPRequestParser.Limits(maxHeaderBytes: 1024, maxBodyBytes: 1024)
    var table = ConnectionTable()
    #expect(table[7] == nil && table[-1] == nil && table.count == 0)
    for fd: Int32 in [7, 3, 300] { table[fd] = Connection(fd: fd, id: Int(fd), limits: limits, now: 0) }
    #expect(table.count == 3)
    #expect(table[300]?.id == 300 && table[3]?.id == 3 && table[4] == nil)
    #expect(table.values.map(\.fd) == [3, 7, 300])
    #expect(table.removeValue(forKey: 7)?.fd == 7)
    #expect(table.removeValue(forKey: 7) == nil)
    table[5000] = nil
    #expect(table.count == 2 && table[7] == nil)
    table[3] = Connection(fd: 3, id: 33, limits: limits, now: 0)
    #expect(table.count == 2 && table[3]?.id == 33)
  }
}

import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

/// The record is bounded: past its limits requests are still answered, and the counters say what
/// was not kept.
@Suite("bounded server record")
struct BoundedRecordTests {
  @Test func requestsPastTheCapAreAnsweredAndCountedNotKept() throws {
    let server = try makeServer { $0.maxRecordedRequests = 5 }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send(String(repeating: "GET /n HTTP/1.1\r\nHost: x\r\n\r\n", count: 8))
    #expect(client.readResponses(8)?.count == 8)
    #expect(server.requests.count == 5)
    #expect(server.responses.count == 5)
    #expect(server.requests.map(\.sequence) == [0, 1, 2, 3, 4])
    let counters = server.counters
    #expect(counters.requestsReceived == 8)
    #expect(counters.requestsDropped == 3)
    #expect(!counters.recordIsComplete)
  }

  @Test func withinTheCapTheRecordIsComplete() throws {
    let server = try makeServer { $0.maxRecordedRequests = 5 }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send(String(repeating: "GET /n HTTP/1.1\r\nHost: x\r\n\r\n", count: 5))
    #expect(client.readResponses(5)?.count == 5)
    #expect(server.requests.count == 5)
    #expect(server.counters.recordIsComplete)
  }

  @Test func bodiesPastTheByteBudgetAreCutAndCounted() throws {
    let server = try makeServer { $0.maxRecordedBytes = 2000 }
    defer { server.stop() }
    server.on(.post, "/up") { .text("\($0.body.count)") }
    let body = String(repeating: "b", count: 800)
    let client = try RawClient(port: server.port)
    let request = "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 800\r\n\r\n\(body)"
    client.send(request + request)
    let answers = try #require(client.readResponses(2))
    #expect(answers.allSatisfy { $0.hasSuffix("\r\n\r\n800") }, "the handler saw every byte")
    let (first, second) = (server.requests[0], server.requests[1])
    #expect(first.droppedBytes == 0)
    #expect(first.body.count == 800)
    let room = 2000 - 800 - request.utf8.count
    #expect(second.body.count == room)
    #expect(second.raw.isEmpty)
    #expect(second.droppedBytes == 800 + request.utf8.count - room)
    #expect(server.counters.bytesDropped == second.droppedBytes)
    #expect(!server.counters.recordIsComplete)
  }

  @Test func theObserverSeesEveryRequestAndWrittenResponseWhileNothingIsKept() async throws {
    let server = try makeServer {
      $0.recordsRequests = false
      $0.maxRecordedRequests = 0
    }
    defer { server.stop() }
    let seen = Locked((requests: [Int](), written: [Int]()))
    server.observeRecord { event in
      switch event {
      case .request(let request): seen.withLock { $0.requests.append(request.sequence) }
      case .responseWritten(let response):
        #expect(response.fullyWritten)
        seen.withLock { $0.written.append(response.requestSequence) }
      }
    }
    let client = try RawClient(port: server.port)
    client.send(String(repeating: "GET /o HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
    #expect(client.readResponses(3)?.count == 3)
    // The server tells the observer right after the last byte left, so the client may be first.
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while seen.current.written.count < 3, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(2))
    }
    #expect(seen.current.requests == [0, 1, 2])
    #expect(seen.current.written == [0, 1, 2])
    #expect(server.requests.isEmpty)
    #expect(server.counters.requestsReceived == 3)
  }

  @Test func aScopeWhoseServerDroppedRequestsIsInconclusive() async throws {
    let scope = CanaryTrap(title: "record past its cap")
    try await scope.start()
    let limit = LoopbackServer.Configuration().maxRecordedRequests
    let client = try RawClient(port: scope.server.port)
    client.send(
      String(repeating: "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", count: limit)
        + "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(client.readToEnd().closed)
    let report = await scope.finish()
    #expect(report.errors.contains { $0.contains("record is incomplete (1 requests") }, "\(report.errors)")
  }
}

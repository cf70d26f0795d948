import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// WebSocket bytes inside the server's buffered-bytes budget, over real sockets: a partial frame
/// and the fragments of an unfinished message count toward
/// ``LoopbackServer/Configuration/maxBufferedRequestBytes``, and a connection that takes the total
/// past it is answered with close code 1013 and closed.
@Suite("WebSocket budget")
struct WebSocketBudgetTests {
  /// A budget small enough for a test: three 100 KiB unfinished messages do not fit.
  static let budget = 256 * 1024
  static let fragment = 100 * 1024

  private func budgetServer() throws -> LoopbackServer {
    let server = try makeServer { $0.maxBufferedRequestBytes = Self.budget }
    server.onWebSocket("/chat", script: WebSocketScript(closeReason: "bye"))
    return server
  }

  /// Opens a WebSocket and sends the first fragment of a binary message that is not finished.
  private func openWithUnfinishedMessage(_ server: LoopbackServer, bytes: Int = fragment) throws
    -> WebSocketTestClient
  {
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat") == 101)
    client.send(WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 7, count: bytes)))
    return client
  }

  /// Whether the server is still reading `client`'s frames: a ping is answered with its pong.
  private func answersPing(_ client: WebSocketTestClient, _ tag: UInt8) -> Bool {
    client.send(WebSocketFrame(opcode: .ping, payload: [tag]))
    return client.nextFrame() == WebSocketFrame(opcode: .pong, payload: [tag])
  }

  @Test("fragments that never finish are closed with 1013 once they pass the budget")
  func fragmentsThatNeverFinish() throws {
    let server = try budgetServer()
    defer { server.stop() }
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat") == 101)
    client.send(WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 1, count: 32 * 1024)))
    // 32 KiB continuations, never the last one: the 9th takes the message past 256 KiB.
    var closeCode: UInt16?
    for _ in 1...12 {
      client.send(
        WebSocketFrame(fin: false, opcode: .continuation, payload: [UInt8](repeating: 2, count: 32 * 1024)))
    }
    while let event = client.nextEvent() {
      if case .close(let code, _) = event {
        closeCode = code
        break
      }
    }
    #expect(closeCode == 1013)
    #expect(client.readsEndOfStream(), "the connection stays open")
    let record = try #require(server.webSockets.first)
    #expect(record.failure?.hasPrefix("1013: ") == true, "\(record.failure ?? "no failure")")
    #expect(record.received.isEmpty)
    let counters = server.counters
    #expect(counters.webSocketsClosedOverBudget == 1)
    // Bounded: the total never passed the budget by more than one turn's read.
    #expect(counters.peakBufferedRequestBytes > Self.budget)
    #expect(counters.peakBufferedRequestBytes <= Self.budget + EventLoop.readBudgetPerTurn)
  }

  @Test("twin: the same fragments finished under the budget are joined, and the budget is freed")
  func fragmentsThatFinishInTime() throws {
    let server = try budgetServer()
    defer { server.stop() }
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat") == 101)
    // Four messages of 192 KiB: together past the budget, each one freed when it ends.
    for round in 1...4 {
      client.send(
        WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 1, count: 64 * 1024)))
      client.send(
        WebSocketFrame(fin: false, opcode: .continuation, payload: [UInt8](repeating: 2, count: 64 * 1024)))
      client.send(
        WebSocketFrame(fin: true, opcode: .continuation, payload: [UInt8](repeating: 3, count: 64 * 1024)))
      #expect(answersPing(client, UInt8(round)), "round \(round)")
    }
    client.send(WebSocketFrame.close(code: .normal))
    #expect(client.nextEvent() == .close(code: 1000, reason: "bye"))
    #expect(client.readsEndOfStream())
    let record = try #require(server.webSockets.first)
    #expect(record.received.count == 4)
    #expect(record.received.allSatisfy { $0.payload.count == 192 * 1024 })
    #expect(record.failure == nil)
    #expect(server.counters.webSocketsClosedOverBudget == 0)
    #expect(server.counters.peakBufferedRequestBytes <= Self.budget)
  }

  @Test("many connections: those past the budget are closed with 1013, the rest go on, room comes back")
  func manyConnections() throws {
    let server = try budgetServer()
    defer { server.stop() }
    // Two unfinished 100 KiB messages fit in 256 KiB; each later one takes the total past it.
    var kept: [WebSocketTestClient] = []
    for index in 0..<8 {
      let client = try openWithUnfinishedMessage(server)
      if index < 2 {
        #expect(answersPing(client, UInt8(index)), "connection \(index) was not read on")
        kept.append(client)
      } else {
        guard case .close(let code, _)? = client.nextEvent() else {
          Issue.record("connection \(index): no close frame came back")
          continue
        }
        #expect(code == 1013, "connection \(index)")
        #expect(client.readsEndOfStream(), "connection \(index) stays open")
      }
    }
    let counters = server.counters
    #expect(counters.webSocketsClosedOverBudget == 6)
    #expect(counters.peakBufferedRequestBytes <= Self.budget + Self.fragment + 1024)
    #expect(server.webSockets.filter { $0.failure?.hasPrefix("1013: ") == true }.count == 6)

    // The two kept connections finish their messages; their bytes leave the budget.
    for (index, client) in kept.enumerated() {
      client.send(WebSocketFrame(fin: true, opcode: .continuation, payload: [9]))
      #expect(answersPing(client, UInt8(10 + index)))
    }
    // So a new unfinished message fits again.
    let late = try openWithUnfinishedMessage(server)
    #expect(answersPing(late, 99), "the budget was not freed by the finished messages")
    #expect(server.counters.webSocketsClosedOverBudget == 6)
    for client in kept + [late] {
      client.send(WebSocketFrame.close(code: .normal))
      #expect(client.nextEvent() == .close(code: 1000, reason: "bye"))
    }
    let finished = server.webSockets.filter { $0.received.count == 1 }
    #expect(finished.count == 2)
    #expect(finished.allSatisfy { $0.received.first?.payload.count == Self.fragment + 1 })
  }

  @Test("connections holding less than 64 KiB are never closed for the budget")
  func smallHoldersStay() throws {
    let server = try makeServer { $0.maxBufferedRequestBytes = 100 * 1024 }
    server.onWebSocket("/chat", script: WebSocketScript(closeReason: "bye"))
    defer { server.stop() }
    var clients: [WebSocketTestClient] = []
    // Six connections of 30 KiB each: 180 KiB in all, past the budget, none over the allowance.
    for index in 0..<6 {
      let client = try openWithUnfinishedMessage(server, bytes: 30 * 1024)
      #expect(answersPing(client, UInt8(index)), "connection \(index) was closed")
      clients.append(client)
    }
    #expect(server.counters.webSocketsClosedOverBudget == 0)
    #expect(server.counters.peakBufferedRequestBytes >= 6 * 30 * 1024)
    withExtendedLifetime(clients) {}
  }
}

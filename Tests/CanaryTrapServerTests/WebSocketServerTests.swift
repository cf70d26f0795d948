import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// The loopback server's WebSocket side over real sockets: handshake, frames, close, limits.
@Suite("WebSocket server")
struct WebSocketServerTests {
  static let script = WebSocketScript(
    subprotocol: "chat.v1", messages: [.text("hello from the server"), .binary(Data([0, 1, 2, 255]))],
    closeReason: "server says bye")

  @Test("a valid handshake gets 101, the script, pongs, fragments joined and the close handshake")
  func wholeExchange() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.onWebSocket("/chat", script: Self.script)
    let client = try WebSocketTestClient(port: server.port)
    let key = WebSocketTestClient.makeKey()
    let status = client.handshake(
      target: "/chat?room=7", headers: [("Sec-WebSocket-Protocol", "other, chat.v1")], key: key)
    #expect(status == 101)
    #expect(client.responseHeader("Sec-WebSocket-Accept") == WebSocketHandshake.acceptValue(forKey: key))
    #expect(client.responseHeader("Sec-WebSocket-Protocol") == "chat.v1")
    #expect(client.nextEvent() == .text("hello from the server"))
    #expect(client.nextEvent() == .binary([0, 1, 2, 255]))
    client.send(WebSocketFrame(opcode: .ping, payload: Array("are you there".utf8)))
    #expect(client.nextFrame() == WebSocketFrame(opcode: .pong, payload: Array("are you there".utf8)))
    client.send(.text("a message cut in three fragments"), fragments: 3)
    // A ping between the fragments of a binary message is answered, the message still joined.
    client.send(WebSocketFrame(fin: false, opcode: .binary, payload: [1, 2]))
    client.send(WebSocketFrame(opcode: .ping, payload: [9]))
    client.send(WebSocketFrame(fin: true, opcode: .continuation, payload: [3]))
    #expect(client.nextFrame() == WebSocketFrame(opcode: .pong, payload: [9]))
    client.send(WebSocketFrame.close(code: .goingAway, reason: "client says bye"))
    #expect(client.nextEvent() == .close(code: 1001, reason: "server says bye"))
    #expect(client.readsEndOfStream())

    let record = try #require(server.webSockets.first)
    #expect(server.webSockets.count == 1)
    #expect(record.path == "/chat")
    #expect(record.subprotocol == "chat.v1")
    #expect(record.received == [.text("a message cut in three fragments"), .binary(Data([1, 2, 3]))])
    #expect(record.clientClose == WebSocketClose(code: 1001, reason: "client says bye"))
    #expect(record.serverClose == WebSocketClose(code: 1001, reason: "server says bye"))
    #expect(record.serverCloseWritten)
    #expect(record.sent.allSatisfy { $0.fullyWritten })
    #expect(record.pingsAnswered == 2)
    #expect(record.failure == nil)
    let handshake = try #require(server.requests.first { $0.sequence == record.handshakeSequence })
    #expect(handshake.queryItem("room") == "7")
    #expect(server.responses.first?.status == 101)
    #expect(server.counters.recordIsComplete)
  }

  @Test(
    "an invalid handshake is refused with 400 or 426 and the connection closes",
    arguments: [
      ("bad key", [("Sec-WebSocket-Key", "c2hvcnQ=")], "13", 400),
      ("version 8", [], "8", 426),
      ("no Upgrade header", [("Upgrade", "h2c")], "13", 426),
    ])
  func refusedHandshake(_ name: String, _ headers: [(String, String)], _ version: String, _ expected: Int)
    throws
  {
    let server = try makeServer()
    defer { server.stop() }
    server.onWebSocket("/chat", script: Self.script)
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat", headers: headers, version: version) == expected, "\(name)")
    if expected == 426 && version != "13" { #expect(client.responseHeader("Sec-WebSocket-Version") == "13") }
    #expect(client.readsEndOfStream(), "\(name): the connection stays open")
    #expect(server.webSockets.isEmpty)
    #expect(server.responses.first?.status == expected)
  }

  @Test(
    "malformed frames are answered with the right close code over a real socket",
    arguments: [
      ("unmasked frame", [0x81, 0x02, 0x68, 0x69], 1002),
      ("reserved bit", [0xC1, 0x80, 0, 0, 0, 0], 1002),
      ("control frame over 125 bytes", [0x89, 0xFE, 0x00, 0x7E], 1002),
      ("fragmented ping", [0x09, 0x80, 0, 0, 0, 0], 1002),
      ("oversized length", [0x82, 0xFF, 0, 0, 0, 0, 0x10, 0, 0, 0], 1009),
      ("invalid UTF-8 text", [0x81, 0x82, 0, 0, 0, 0, 0xC3, 0x28], 1007),
      ("continuation with nothing to continue", [0x80, 0x80, 0, 0, 0, 0], 1002),
      ("close code 1005 sent", [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xED], 1002),
    ] as [(String, [UInt8], UInt16)])
  func malformedFrames(_ name: String, _ bytes: [UInt8], _ code: UInt16) throws {
    let server = try makeServer()
    defer { server.stop() }
    server.onWebSocket("/chat", script: WebSocketScript())
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat") == 101)
    client.raw.send(bytes)
    guard case .close(let sent, _)? = client.nextEvent() else {
      Issue.record("\(name): no close frame came back")
      return
    }
    #expect(sent == code, "\(name)")
    #expect(client.readsEndOfStream(), "\(name): the connection stays open")
    let record = try #require(server.webSockets.first)
    #expect(record.failure?.hasPrefix("\(code): ") == true, "\(name): \(record.failure ?? "no failure")")
    #expect(record.clientClose == nil)
  }

  @Test("a message over the configured limit is closed with 1009")
  func messageOverLimit() throws {
    let server = try makeServer { $0.maxWebSocketMessageBytes = 100 }
    defer { server.stop() }
    server.onWebSocket("/chat", script: WebSocketScript())
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat") == 101)
    client.send(.binary(Data(repeating: 7, count: 150)), fragments: 3)
    guard case .close(let code, _)? = client.nextEvent() else {
      Issue.record("no close frame came back")
      return
    }
    #expect(code == 1009)
  }

  @Test("the record keeps the client's messages up to its limit and counts the rest")
  func recordLimit() throws {
    let server = try makeServer { $0.maxRecordedWebSocketMessages = 3 }
    defer { server.stop() }
    server.onWebSocket("/chat", script: WebSocketScript(closeReason: "done"))
    let client = try WebSocketTestClient(port: server.port)
    #expect(client.handshake(target: "/chat") == 101)
    for index in 1...5 { client.send(.text("message \(index)")) }
    client.send(WebSocketFrame.close(code: .normal))
    #expect(client.nextEvent() == .close(code: 1000, reason: "done"))
    let record = try #require(server.webSockets.first)
    #expect(record.received == [.text("message 1"), .text("message 2"), .text("message 3")])
    #expect(record.droppedMessages == 2)
    #expect(server.counters.webSocketMessagesDropped == 2)
    #expect(!server.counters.recordIsComplete)
  }

  /// Three conversations on `/chat`, one after another: a text message each, then the close
  /// handshake.
  private func holdThreeConversations(on server: LoopbackServer) throws {
    server.onWebSocket("/chat", script: WebSocketScript(closeReason: "done"))
    for index in 1...3 {
      let client = try WebSocketTestClient(port: server.port)
      #expect(client.handshake(target: "/chat") == 101)
      client.send(.text("conversation \(index)"))
      client.send(WebSocketFrame.close(code: .normal))
      #expect(client.nextEvent() == .close(code: 1000, reason: "done"))
    }
  }

  /// A server that keeps WebSocket conversations without their upgrade requests, at most `cap`.
  private func conversationServer(keeping cap: Int) throws -> LoopbackServer {
    try makeServer {
      $0.recordsRequests = false
      $0.recordsWebSocketsAlways = true
      $0.maxRecordedRequests = cap
    }
  }

  @Test("conversations kept without their upgrade request stop at maxRecordedRequests, the rest counted")
  func conversationCountIsBounded() throws {
    let server = try conversationServer(keeping: 2)
    defer { server.stop() }
    try holdThreeConversations(on: server)
    #expect(server.webSockets.map(\.received) == [[.text("conversation 1")], [.text("conversation 2")]])
    #expect(server.counters.webSocketsDropped == 1)
    #expect(server.counters.webSocketMessagesDropped == 1)
    #expect(!server.counters.recordIsComplete)
  }

  @Test("twin: under the cap every conversation is kept and the record is complete")
  func conversationsUnderTheCapAreKept() throws {
    let server = try conversationServer(keeping: 3)
    defer { server.stop() }
    try holdThreeConversations(on: server)
    #expect(server.webSockets.count == 3)
    #expect(server.counters.webSocketsDropped == 0)
    #expect(server.counters.recordIsComplete)
  }

  @Test("the idle timeout closes a silent WebSocket connection")
  func silentConnectionCloses() throws {
    let server = try makeServer { $0.idleTimeout = .milliseconds(200) }
    defer { server.stop() }
    server.onWebSocket("/chat", script: WebSocketScript())
    let client = try WebSocketTestClient(port: server.port, receiveTimeout: 3)
    #expect(client.handshake(target: "/chat") == 101)
    let started = ContinuousClock.now
    #expect(client.readsEndOfStream())
    #expect(ContinuousClock.now - started < .seconds(3))
  }

  @Test("frames sent right behind the handshake are read as frames")
  func framesBehindTheHandshake() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.onWebSocket("/chat", script: WebSocketScript())
    let client = try WebSocketTestClient(port: server.port)
    let key = WebSocketTestClient.makeKey()
    let head =
      "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
    let frame = WebSocketFrame(opcode: .text, payload: Array("early".utf8)).encoded(maskingKey: [1, 2, 3, 4])
    client.raw.send(
      Array(head.utf8) + frame + WebSocketFrame.close(code: .normal).encoded(maskingKey: [5, 6, 7, 8]))
    #expect(client.raw.readToEnd().closed)
    #expect(server.webSockets.first?.received == [.text("early")])
    #expect(server.webSockets.first?.clientClose?.code == 1000)
  }
}

import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// `canary serve`'s WebSocket endpoint, driven by a WebSocket client on a real socket: the
/// server's scripted messages and close reason carry the response-side canaries, and the
/// conversation is written to the record with the request canaries looked for in it.
@Suite("canary serve: /websocket")
struct ServeWebSocketTests {
  static let manifest = """
    {"version":1,"canaries":[
     {"value":"cnryWsQuery000001","location":"request.url.query[access_token]"},
     {"value":"cnryWsClientText2","location":"websocket.client[1].text"},
     {"value":"cnryWsNeverSent03","location":"websocket.client[2].binary"},
     {"value":"cnryWsClientBye04","location":"websocket.client.close.reason"},
     {"value":"cnryWsServerText5","location":"websocket.server[1].text"},
     {"value":"cnryWsServerBin06","location":"websocket.server[2].binary"},
     {"value":"cnryWsServerBye07","location":"websocket.server.close.reason"}
    ]}
    """

  @Test("a conversation on /websocket is served from the manifest and written to the record")
  func conversationIsServedAndRecorded() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-ws-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let recordURL = directory.appendingPathComponent("record.json")
    try Data(Self.manifest.utf8).write(to: manifestURL)
    let captured = CapturedIO()
    let stopRequested = Locked(false)
    let command = Task {
      await ServeCommand.run(
        ["--manifest", manifestURL.path, "--record", recordURL.path], io: captured.io,
        until: {
          while !stopRequested.current { try? await Task.sleep(for: .milliseconds(5)) }
        })
    }
    var base: String?
    for _ in 0..<400 where base == nil {
      try await Task.sleep(for: .milliseconds(5))
      base = captured.standardOutput.split(separator: "\n").first.map(String.init)
    }
    let port = try #require(base.flatMap(URL.init(string:))?.port)

    let client = try WebSocketTestClient(port: UInt16(port))
    let status = client.handshake(
      target: "/websocket?access_token=cnryWsQuery000001",
      headers: [("Sec-WebSocket-Protocol", "ui.v2, other")])
    #expect(status == 101)
    #expect(client.responseHeader("Sec-WebSocket-Protocol") == "ui.v2")
    #expect(client.nextEvent() == .text("cnryWsServerText5"))
    #expect(client.nextEvent() == .binary(Array("cnryWsServerBin06".utf8)))
    client.send(.text("hello cnryWsClientText2 there"), fragments: 2)
    client.send(.binary(Data("nothing planted".utf8)))
    client.send(WebSocketFrame(opcode: .ping, payload: [1]))
    #expect(client.nextFrame() == WebSocketFrame(opcode: .pong, payload: [1]))
    client.send(WebSocketFrame.close(code: .normal, reason: "bye cnryWsClientBye04"))
    #expect(client.nextEvent() == .close(code: 1000, reason: "cnryWsServerBye07"))
    #expect(client.readsEndOfStream())

    stopRequested.withLock { $0 = true }
    #expect(await command.value == ExitStatus.success)
    let lines = try serveRecordLines(Data(contentsOf: recordURL))
    let handshake = try #require(lines.first { $0["type"] as? String == "request" })
    let conversation = try #require(lines.first { $0["type"] as? String == "websocket" })
    #expect(conversation["request"] as? Int == handshake["sequence"] as? Int)
    #expect(conversation["path"] as? String == "/websocket")
    #expect(conversation["subprotocol"] as? String == "ui.v2")
    let received = try #require(conversation["received"] as? [[String: Any]])
    #expect(received.count == 2)
    #expect(received.first?["text"] as? String == "hello cnryWsClientText2 there")
    #expect(received.last?["base64"] as? String == Data("nothing planted".utf8).base64EncodedString())
    let sent = try #require(conversation["sent"] as? [[String: Any]])
    #expect(sent.map { $0["fullyWritten"] as? Bool } == [true, true])
    #expect((conversation["clientClose"] as? [String: Any])?["reason"] as? String == "bye cnryWsClientBye04")
    #expect((conversation["serverClose"] as? [String: Any])?["code"] as? Int == 1000)
    #expect(conversation["serverCloseWritten"] as? Bool == true)
    #expect(conversation["pingsAnswered"] as? Int == 1)
    #expect(conversation["failure"] == nil)

    let summary = try #require(lines.last)
    #expect(summary["type"] as? String == "summary")
    let requestSide = try #require(summary["requestCanaries"] as? [[String: Any]])
    let seen = Dictionary(
      uniqueKeysWithValues: requestSide.map { ($0["value"] as! String, $0["seen"] as! Bool) })
    // The twin: the binary canary the client never sent is not seen.
    #expect(
      seen == [
        "cnryWsQuery000001": true, "cnryWsClientText2": true, "cnryWsNeverSent03": false,
        "cnryWsClientBye04": true,
      ])
    let responseSide = try #require(summary["responseCanaries"] as? [[String: Any]])
    #expect(responseSide.count == 3)
    #expect(responseSide.allSatisfy { $0["seen"] as? Bool == true }, "\(responseSide)")
    #expect(!captured.standardError.contains("cannot plant"), "\(captured.standardError)")
  }

  @Test("twin: a client that sends none of its canaries is seen in nothing but its handshake")
  func silentClientIsNotSeen() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-ws-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let recordURL = directory.appendingPathComponent("record.json")
    try Data(Self.manifest.utf8).write(to: manifestURL)
    let captured = CapturedIO()
    let stopRequested = Locked(false)
    let command = Task {
      await ServeCommand.run(
        ["--manifest", manifestURL.path, "--record", recordURL.path], io: captured.io,
        until: {
          while !stopRequested.current { try? await Task.sleep(for: .milliseconds(5)) }
        })
    }
    var base: String?
    for _ in 0..<400 where base == nil {
      try await Task.sleep(for: .milliseconds(5))
      base = captured.standardOutput.split(separator: "\n").first.map(String.init)
    }
    let port = try #require(base.flatMap(URL.init(string:))?.port)
    let client = try WebSocketTestClient(port: UInt16(port))
    #expect(client.handshake(target: "/websocket?access_token=cnryWsQuery000001") == 101)
    #expect(client.responseHeader("Sec-WebSocket-Protocol") == nil)
    client.send(.text("redacted"))
    client.send(WebSocketFrame.close(code: .goingAway, reason: "redacted"))
    #expect(client.nextEvent() == .text("cnryWsServerText5"))
    stopRequested.withLock { $0 = true }
    #expect(await command.value == ExitStatus.success)
    let lines = try serveRecordLines(Data(contentsOf: recordURL))
    let summary = try #require(lines.last)
    let requestSide = try #require(summary["requestCanaries"] as? [[String: Any]])
    let seen = Set(requestSide.filter { $0["seen"] as? Bool == true }.compactMap { $0["value"] as? String })
    #expect(seen == ["cnryWsQuery000001"])
    #expect(lines.filter { $0["type"] as? String == "websocket" }.count == 1)
  }

  @Test("the closing message says how many conversations and messages the full record did not keep")
  func closingMessageNamesWhatWasNotKept() {
    var counters = ServerCounters()
    #expect(ServeCommand.notKept(counters) == "")
    counters.webSocketsDropped = 2
    counters.webSocketMessagesDropped = 5
    #expect(
      ServeCommand.notKept(counters)
        == "; not kept (the record was full): 2 WebSocket conversations, 5 WebSocket messages")
  }
}

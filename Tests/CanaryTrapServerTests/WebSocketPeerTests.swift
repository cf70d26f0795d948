import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// The server against a WebSocket implementation not written here: Python's `websockets` package
/// (its synchronous client), run as a subprocess against the loopback server. CI installs it
/// (`.ci/run`); where it is missing the tests record a known issue saying so, never a silent pass.
@Suite("WebSocket peer: Python websockets")
struct WebSocketPeerTests {
  static let script = WebSocketScript(
    subprotocol: "chat.v1", messages: [.text("hello from swift"), .binary(Data([0, 1, 2, 255]))],
    closeReason: "swift says bye")

  /// The client: connects offering two subprotocols, reads the server's two messages, then either
  /// holds a conversation (text, binary, a fragmented text, a ping, a close with a reason) or sends
  /// one binary message over the server's limit. Prints what it saw as JSON.
  static let client = """
    import json, sys
    from websockets.sync.client import connect
    from websockets.exceptions import ConnectionClosed

    port, mode = int(sys.argv[1]), sys.argv[2]
    out = {}
    with connect(
        f"ws://127.0.0.1:{port}/peer?room=7", subprotocols=["other", "chat.v1"],
        additional_headers={"X-Peer": "python"}, open_timeout=5, close_timeout=5,
        max_size=None, compression=None,
    ) as ws:
        out["subprotocol"] = ws.subprotocol
        out["received"] = []
        for _ in range(2):
            message = ws.recv(timeout=5)
            out["received"].append(["text", message] if isinstance(message, str) else ["binary", message.hex()])
        if mode == "conversation":
            ws.send("hello from python")
            ws.send(bytes([0, 1, 2, 254, 255]))
            ws.send(["frag", "mented"])
            out["pong"] = ws.ping(b"py-ping").wait(5)
            ws.close(code=1001, reason="python says bye")
        else:
            ws.send(bytes(2000))
            try:
                ws.recv(timeout=5)
            except ConnectionClosed:
                pass
        rcvd = ws.protocol.close_rcvd
        out["close_received"] = [rcvd.code, rcvd.reason] if rcvd else None
    print(json.dumps(out))
    """

  /// What the Python client printed.
  struct PeerOutput: Decodable {
    var subprotocol: String?
    var received: [[String]]
    var pong: Bool?
    var close_received: CloseReceived?

    struct CloseReceived: Decodable {
      var code: Int
      var reason: String

      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        code = try container.decode(Int.self)
        reason = try container.decode(String.self)
      }
    }
  }

  /// Runs `python3` with `arguments`; returns its exit status and standard output.
  static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try ChildProcessLaunch.run(process)
    // Read before waiting, so a full pipe cannot block the child.
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  /// Runs the client in `mode` against `server`, or records that the test did not run when it cannot.
  static func runClient(_ mode: String, against server: LoopbackServer) throws -> PeerOutput? {
    guard
      ExternalTools.requirePython(
        "websockets.sync.client", package: "websockets", for: "the test against Python's websockets client")
    else { return nil }
    let result = try run(["-c", client, "\(server.port)", mode])
    #expect(result.status == 0, "the Python client failed: \(result.error.suffix(2000))")
    guard result.status == 0 else { return nil }
    return try JSONDecoder().decode(PeerOutput.self, from: Data(result.output.utf8))
  }

  @Test("handshake with a subprotocol, text and binary both ways, fragments, a ping, a close with a reason")
  func conversation() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.onWebSocket("/peer", script: Self.script)
    guard let output = try Self.runClient("conversation", against: server) else { return }

    // What the Python client saw.
    #expect(output.subprotocol == "chat.v1")
    #expect(output.received == [["text", "hello from swift"], ["binary", "000102ff"]])
    #expect(output.pong == true)
    #expect(output.close_received?.code == 1001)
    #expect(output.close_received?.reason == "swift says bye")

    // What the server's record shows.
    waitUntil {
      server.webSockets.first.map { $0.serverCloseWritten && $0.sent.allSatisfy(\.fullyWritten) } == true
    }
    let record = try #require(server.webSockets.first)
    #expect(server.webSockets.count == 1)
    #expect(record.path == "/peer")
    #expect(record.subprotocol == "chat.v1")
    #expect(
      record.received == [
        .text("hello from python"), .binary(Data([0, 1, 2, 254, 255])), .text("fragmented"),
      ])
    #expect(record.pingsAnswered == 1)
    #expect(record.clientClose == WebSocketClose(code: 1001, reason: "python says bye"))
    #expect(record.serverClose == WebSocketClose(code: 1001, reason: "swift says bye"))
    #expect(record.serverCloseWritten)
    #expect(record.sent.allSatisfy { $0.fullyWritten })
    #expect(record.failure == nil)
    let handshake = try #require(server.requests.first { $0.sequence == record.handshakeSequence })
    #expect(handshake.queryItem("room") == "7")
    #expect(handshake.headers.values(for: "X-Peer") == ["python"])
    #expect(handshake.headers.values(for: "Sec-WebSocket-Protocol") == ["other, chat.v1"])
    #expect(server.counters.recordIsComplete)
  }

  @Test("twin: a message over the server's limit reaches the Python client as close code 1009")
  func messageOverLimit() throws {
    let server = try makeServer { $0.maxWebSocketMessageBytes = 1000 }
    defer { server.stop() }
    server.onWebSocket("/peer", script: Self.script)
    guard let output = try Self.runClient("over-limit", against: server) else { return }
    #expect(output.received.count == 2)
    #expect(output.close_received?.code == 1009)
    let record = try #require(server.webSockets.first)
    #expect(record.received.isEmpty)
    #expect(record.failure?.hasPrefix("1009: ") == true, "\(record.failure ?? "no failure")")
    #expect(record.clientClose == nil)
  }
}

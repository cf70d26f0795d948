import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap
@testable import CanaryTrapServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("WebSocket kind")
struct WebSocketKindTests {
  static let locations: Set<String> = [
    "request.url.query[access_token]", "request.header[X-Chat-Token]",
    "request.header[Sec-WebSocket-Protocol]",
    "websocket.client[1].text", "websocket.client[2].binary", "websocket.server[1].text",
    "websocket.server[2].binary", "websocket.client.close.reason", "websocket.server.close.reason",
  ]

  @Test("the WebSocket locations round-trip through their string form")
  func locationsRoundTrip() {
    for description in Self.locations {
      #expect(CanaryLocation(description).description == description)
      if description.hasPrefix("websocket.") {
        guard case .webSocket = CanaryLocation(description) else {
          Issue.record("\(description) parsed as \(CanaryLocation(description))")
          continue
        }
      }
    }
    #expect(CanaryLocation("websocket.client[0].text") == .custom("websocket.client[0].text"))
    #expect(CanaryLocation("websocket.server[1].json") == .custom("websocket.server[1].json"))
    #expect(CanaryLocation.webSocket(.clientMessage(1, .text)).isRequestSide)
    #expect(!CanaryLocation.webSocket(.serverCloseReason).isRequestSide)
  }

  @Test("a careful logger through the test client: every canary delivered, the run clean")
  func carefulLoggerIsClean() async throws {
    let result = await CanaryTrap.matrix(
      title: "websocket-careful", configuration: .init(captureStandardStreams: false),
      kinds: RequestKind.webSocket
    ) { trap in
      TestTransports.routeOnly(WebSocketTestTransport.transport(), into: trap.memoryLog("app-log"))
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(Set(result.coverage.map(\.location.description)) == Self.locations)
    #expect(report.verdict == .clean)
  }

  @Test("twin: a logger of handshakes and messages is caught at every location")
  func leakyLoggerIsCaught() async throws {
    let result = await CanaryTrap.matrix(
      title: "websocket-leaky", configuration: .init(captureStandardStreams: false),
      kinds: RequestKind.webSocket
    ) { trap in
      let log = trap.memoryLog("app-log")
      return WebSocketTestTransport.transport { log.write(WebSocketTestTransport.leakyLine($0)) }
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(Set(report.leakedLocations.map(\.description)) == Self.locations)
  }

  @Test(
    "a client that alters its text message or never sends a close frame leaves those canaries undelivered")
  func alteredOrMissingIsUndelivered() async throws {
    let result = await CanaryTrap.matrix(
      title: "websocket-altered", configuration: .init(captureStandardStreams: false),
      kinds: RequestKind.webSocket
    ) { trap in
      let base = TestTransports.routeOnly(WebSocketTestTransport.transport(), into: trap.memoryLog())
      return Transport { request in
        guard var plan = WebSocketPlan(request: request) else { throw URLError(.badURL) }
        // The first message loses a character of its canary (an app that trims or re-encodes).
        if case .text(let text) = plan.messages[0] {
          plan.messages[0] = .text(text.replacingOccurrences(of: "@", with: ""))
        }
        plan.closeReason = ""
        return try await base.send(plan.attached(to: request))
      }
    }
    let report = try #require(result.report)
    #expect(
      Set(result.undelivered.map(\.canary.location.description)) == [
        "websocket.client[1].text", "websocket.client.close.reason",
      ])
    #expect(report.verdict == .inconclusive)
  }

  @Test("a transport that cannot speak WebSocket (URLSession here) leaves the kind undelivered: inconclusive")
  func plainSessionIsInconclusive() async throws {
    let result = await CanaryTrap.matrix(
      title: "websocket-urlsession", configuration: .init(captureStandardStreams: false),
      kinds: RequestKind.webSocket
    ) { trap in
      TestTransports.routeOnly(.urlSession(TestTransports.session()), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.count == Self.locations.count)
    #expect(result.kinds.first?.errors.count == 1)
    #expect(report.verdict == .inconclusive)
  }

  @Test("the proof reads the server's record: exact value, whole frames, kept messages")
  func proofReadsTheRecord() {
    var record = WebSocketRecord(
      handshakeSequence: 0, connectionID: 0, path: "/t/websocket/chat", subprotocol: nil,
      sent: [.text("hello cnryA"), .binary(Data("cnryB".utf8))])
    record.received = [.text("to cnryC")]
    record.sent[0].fullyWritten = true
    record.clientClose = WebSocketClose(code: 1000, reason: "bye cnryD")
    record.serverClose = WebSocketClose(code: 1000, reason: "bye cnryE")
    func status(_ part: CanaryLocation.WebSocketPart, _ value: String, _ records: [WebSocketRecord]) -> Bool {
      WebSocketProof.status(
        of: part, value: value,
        in: DeliveryEvidence(received: [], sent: [], returned: [], webSockets: records)) == .delivered
    }
    #expect(status(.serverMessage(1, .text), "cnryA", [record]))
    #expect(!status(.serverMessage(1, .binary), "cnryA", [record]), "wrong type")
    #expect(!status(.serverMessage(2, .binary), "cnryB", [record]), "not fully written")
    #expect(status(.clientMessage(1, .text), "cnryC", [record]))
    #expect(!status(.clientMessage(1, .text), "cnryX", [record]), "altered value")
    #expect(!status(.clientMessage(2, .text), "cnryC", [record]), "wrong index")
    #expect(status(.clientCloseReason, "cnryD", [record]))
    #expect(!status(.serverCloseReason, "cnryE", [record]), "close frame not fully written")
    #expect(!status(.clientMessage(1, .text), "cnryC", []), "no connection")
    var full = record
    full.received = []
    full.droppedMessages = 1
    let reason = WebSocketProof.status(
      of: .clientMessage(1, .text), value: "cnryC",
      in: DeliveryEvidence(received: [], sent: [], returned: [], webSockets: [full]))
    #expect(reason != .delivered)
    #expect("\(reason)".contains("full"))
  }
}

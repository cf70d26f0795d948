import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// The WebSocket kinds (see <doc:StreamingExchanges>): not part of ``all`` or ``streaming``, since
  /// they need a transport that speaks WebSocket (``WebSocketPlan``); a plain URLSession data task
  /// cannot send their `ws://` requests, and FoundationNetworking cannot open a WebSocket at all.
  public static var webSocket: [RequestKind] { [webSocketChat] }

  /// A chat over WebSocket: canaries in the opening handshake (a query item, a header and a
  /// subprotocol offered in `Sec-WebSocket-Protocol`), in a text and a binary message each way,
  /// and in both close reasons. Client-side canaries are delivered when the server received them
  /// there; server-side ones when the server wrote their whole frame.
  package static let webSocketChat = RequestKind(
    name: "websocket",
    summary:
      "a WebSocket chat: handshake query, header and subprotocol, text and binary messages both ways, close reasons"
  ) { p in
    let query = p.canary(.token, at: .requestURL(.query("access_token")))
    let header = p.canary(.jwt, at: .requestHeader("X-Chat-Token"))
    let subprotocol = p.canary(.token, at: .requestHeader("Sec-WebSocket-Protocol"))
    let clientText = p.canary(.email, at: .webSocket(.clientMessage(1, .text)))
    let clientBinary = p.canary(.uuid, at: .webSocket(.clientMessage(2, .binary)))
    let serverText = p.canary(.token, at: .webSocket(.serverMessage(1, .text)))
    let serverBinary = p.canary(.number, at: .webSocket(.serverMessage(2, .binary)))
    let clientReason = p.canary(.token, at: .webSocket(.clientCloseReason))
    let serverReason = p.canary(.token, at: .webSocket(.serverCloseReason))
    p.server.onWebSocket(
      p.path("chat"),
      script: WebSocketScript(
        subprotocol: "chat.v1",
        messages: [
          .text("{\"type\":\"welcome\",\"session\":\"\(serverText)\"}"),
          .binary(Data([0x01]) + Data("receipt:\(serverBinary)".utf8) + Data([0x00])),
        ],
        closeReason: "bye \(serverReason)"))
    var components = URLComponents(
      url: p.url(p.path("chat"), query: [("access_token", query)]), resolvingAgainstBaseURL: false)
    components?.scheme = "ws"
    let url = components?.url ?? p.url(p.path("chat"))
    let handshake = p.request(
      "GET", url, headers: [("X-Chat-Token", header), ("Sec-WebSocket-Protocol", "chat.v1, \(subprotocol)")])
    let plan = WebSocketPlan(
      messages: [
        .text("{\"type\":\"message\",\"to\":\"\(clientText)\"}"),
        .binary(Data([0x02]) + Data("attachment:\(clientBinary)".utf8)),
      ],
      expectedServerMessages: 2, closeCode: 1000, closeReason: "done \(clientReason)")
    return [plan.attached(to: handshake)]
  }
}

import CanaryTrap
import Foundation
import ServerTestSupport

@testable import CanaryTrapServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A ``Transport`` that runs each request's ``WebSocketPlan`` with the tests' own WebSocket client
/// over a real socket: FoundationNetworking cannot open WebSockets with this machine's libcurl.
/// `log` hears what a logging app would log, through `describe` (nothing by default).
enum WebSocketTestTransport {
  /// What happened in one exchange, handed to a logger.
  enum Event: Sendable {
    case handshake(URLRequest)
    case sent(WebSocketMessage)
    case received(WebSocketMessage)
    case closing(code: UInt16, reason: String)
    case closed(WebSocketClose)
  }

  static func transport(log: @escaping @Sendable (Event) -> Void = { _ in }) -> Transport {
    Transport { request in
      try await withCheckedThrowingContinuation { continuation in
        // Blocking socket calls (each bounded by the receive timeout) stay off the Swift pool.
        let thread = Thread { continuation.resume(with: Result { try exchange(request, log: log) }) }
        thread.start()
      }
    }
  }

  static func exchange(_ request: URLRequest, log: (Event) -> Void) throws -> (Data, URLResponse) {
    guard let url = request.url, url.scheme == "ws", let port = url.port,
      let plan = WebSocketPlan(request: request),
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { throw URLError(.unsupportedURL) }
    log(.handshake(request))
    let client = try WebSocketTestClient(port: UInt16(port))
    let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    let key = WebSocketTestClient.makeKey()
    guard client.handshake(target: target, headers: headers, key: key) == 101,
      client.responseHeader("Sec-WebSocket-Accept") == WebSocketHandshake.acceptValue(forKey: key)
    else { throw URLError(.badServerResponse) }
    for message in plan.messages {
      client.send(message)
      log(.sent(message))
    }
    var transcript = Data()
    var received = 0
    while received < plan.expectedServerMessages, let event = client.nextEvent() {
      let message: WebSocketMessage
      switch event {
      case .text(let text): message = .text(text)
      case .binary(let bytes): message = .binary(Data(bytes))
      default: throw URLError(.networkConnectionLost)
      }
      received += 1
      transcript.append(message.payload)
      transcript.append(0x0A)
      log(.received(message))
    }
    log(.closing(code: plan.closeCode, reason: plan.closeReason))
    client.send(WebSocketFrame.close(rawCode: plan.closeCode, reason: plan.closeReason))
    // RFC 6455 §7.1.1: wait for the server's close frame, then for it to close the connection.
    var serverClose: WebSocketClose?
    while serverClose == nil, let event = client.nextEvent() {
      if case .close(let code, let reason) = event {
        serverClose = WebSocketClose(code: code, reason: reason)
      }
    }
    guard let serverClose, client.readsEndOfStream() else { throw URLError(.networkConnectionLost) }
    log(.closed(serverClose))
    var fields: [String: String] = [:]
    for line in client.responseHead.split(separator: "\r\n").dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
    }
    let response = HTTPURLResponse(url: url, statusCode: 101, httpVersion: "HTTP/1.1", headerFields: fields)!
    return (transcript, response)
  }

  /// A leaky logger's line for `event`: the handshake URL and headers, every message, close reasons.
  static func leakyLine(_ event: Event) -> String {
    switch event {
    case .handshake(let request):
      let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
        .map { "\($0.key): \($0.value)" }.joined(separator: "; ")
      return "ws connect \(request.url?.absoluteString ?? "?") [\(headers)]"
    case .sent(let message): return "ws sent: \(String(decoding: message.payload, as: UTF8.self))"
    case .received(let message): return "ws received: \(String(decoding: message.payload, as: UTF8.self))"
    case .closing(let code, let reason): return "ws closing \(code) \(reason)"
    case .closed(let close): return "ws closed by server \(close.code ?? 0) \(close.reason)"
    }
  }
}

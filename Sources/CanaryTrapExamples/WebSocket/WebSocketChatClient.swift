import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An example chat client over WebSocket that tells a logger about every step of a conversation,
/// the seam where chat apps log: the connection's URL and headers, each message sent and received,
/// and the close frames.
///
/// Each request is a ``RequestKind/webSocketChat`` handshake carrying a ``WebSocketPlan``: the
/// client opens the connection on a real loopback socket, sends the plan's messages, reads the
/// server's, closes with the plan's code and reason and waits for the server's close frame. On
/// Linux FoundationNetworking cannot open a WebSocket, so it speaks RFC 6455 with the package's
/// own codec (an app on Apple platforms would use `URLSessionWebSocketTask`, as
/// `Transport.urlSessionWebSocket(_:)` does). Whether it leaks depends only on its `log`:
/// ``printedLine(_:)`` prints everything (as ``PrintingLogger`` does), ``redactedLine(_:)`` keeps
/// only kinds and sizes (as ``RedactingTransport`` does).
package struct WebSocketChatClient: HTTPClientTransport {
  /// One step of a conversation, as the client tells its logger.
  package enum Event: Sendable {
    /// The handshake request is about to be sent.
    case connecting(URLRequest)
    /// A message was sent.
    case sent(WebSocketMessage)
    /// A message of the server was received.
    case received(WebSocketMessage)
    /// The client's close frame is about to be sent.
    case closing(code: UInt16, reason: String)
    /// The server's close frame arrived.
    case closed(WebSocketClose)
  }

  /// Hears every step of every conversation.
  package let log: @Sendable (Event) -> Void

  /// Creates a client that tells `log` about every step.
  package init(log: @escaping @Sendable (Event) -> Void) {
    self.log = log
  }

  /// Runs the conversation `request` carries; returns the server's messages (one a line) and the
  /// handshake's `101` answer. Throws `URLError(.unsupportedURL)` for a request that is not a
  /// `ws://` handshake to a loopback port carrying a plan.
  package func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let log = self.log
    return try await withCheckedThrowingContinuation { continuation in
      // Blocking socket calls (each bounded by the receive timeout) stay off the Swift pool.
      let thread = Thread { continuation.resume(with: Result { try Self.converse(request, log: log) }) }
      thread.start()
    }
  }

  private static func converse(_ request: URLRequest, log: (Event) -> Void) throws -> (Data, URLResponse) {
    guard let url = request.url, url.scheme == "ws", let port = url.port,
      let plan = WebSocketPlan(request: request),
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { throw URLError(.unsupportedURL) }
    log(.connecting(request))
    let connection = try WebSocketConnection(port: UInt16(port))
    let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    try connection.open(target: target, headers: headers)
    for message in plan.messages {
      try connection.send(message)
      log(.sent(message))
    }
    var transcript = Data()
    var received = 0
    while received < plan.expectedServerMessages, let event = try connection.receive() {
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
    try connection.send(WebSocketFrame.close(rawCode: plan.closeCode, reason: plan.closeReason))
    var serverClose: WebSocketClose?
    while serverClose == nil, let event = try connection.receive() {
      if case .close(let code, let reason) = event {
        serverClose = WebSocketClose(code: code, reason: reason)
      }
    }
    guard let serverClose, connection.readsEndOfStream() else { throw URLError(.networkConnectionLost) }
    log(.closed(serverClose))
    let response = HTTPURLResponse(
      url: url, statusCode: 101, httpVersion: "HTTP/1.1", headerFields: connection.responseHeaders)
    guard let response else { throw URLError(.badServerResponse) }
    return (transcript, response)
  }

  /// A debug line with everything: the URL, every header, each message's text and the close
  /// reasons. Leaks every canary of a conversation.
  package static func printedLine(_ event: Event) -> String {
    switch event {
    case .connecting(let request):
      let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
        .map { "\($0.key): \($0.value)" }.joined(separator: "; ")
      return "🔌 connect \(request.url?.absoluteString ?? "-") [\(headers)]"
    case .sent(let message): return "⬆️ ws \(text(of: message))"
    case .received(let message): return "⬇️ ws \(text(of: message))"
    case .closing(let code, let reason): return "🔌 closing \(code) \(reason)"
    case .closed(let close): return "🔌 closed by server \(close.code.map(String.init) ?? "-") \(close.reason)"
    }
  }

  /// A support line that keeps only the shape: the URL's path, how many subprotocols were
  /// offered, each message's type and size, close codes and the reasons' sizes.
  package static func redactedLine(_ event: Event) -> String {
    switch event {
    case .connecting(let request):
      let offered =
        request.value(forHTTPHeaderField: "Sec-WebSocket-Protocol")?.split(separator: ",").count ?? 0
      return "ws connect \(request.url?.path ?? "-") (\(offered) subprotocols offered)"
    case .sent(let message): return "ws sent \(shape(of: message))"
    case .received(let message): return "ws received \(shape(of: message))"
    case .closing(let code, let reason): return "ws closing \(code) (reason: \(reason.utf8.count) bytes)"
    case .closed(let close):
      return "ws closed \(close.code.map(String.init) ?? "-") (reason: \(close.reason.utf8.count) bytes)"
    }
  }

  private static func text(of message: WebSocketMessage) -> String {
    switch message {
    case .text(let text): "text: \(text)"
    case .binary(let data): "binary: \(String(data: data, encoding: .utf8) ?? "<\(data.count) bytes>")"
    }
  }

  private static func shape(of message: WebSocketMessage) -> String {
    switch message {
    case .text(let text): "text, \(text.utf8.count) bytes"
    case .binary(let data): "binary, \(data.count) bytes"
    }
  }
}

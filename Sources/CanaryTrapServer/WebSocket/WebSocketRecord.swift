import Foundation

/// A close frame: its status code, if it had one, and its reason.
package struct WebSocketClose: Sendable, Hashable {
  /// The status code, or nil for a close frame without one.
  package var code: UInt16?
  /// The reason (UTF-8), empty when none was given.
  package var reason: String

  /// Creates a close record.
  package init(code: UInt16?, reason: String) {
    self.code = code
    self.reason = reason
  }
}

/// A message the server sent on a WebSocket connection, and whether every byte of its frame
/// reached the socket.
package struct WebSocketSentMessage: Sendable, Hashable {
  /// The message.
  package var message: WebSocketMessage
  /// Whether every byte of its frame was handed to the kernel.
  package var fullyWritten: Bool
}

/// One WebSocket connection as the loopback server saw it: the upgrade request, what the client
/// sent, what the server wrote, and how it closed.
///
/// The client's messages are bounded by ``LoopbackServer/Configuration/maxRecordedWebSocketMessages``
/// and ``LoopbackServer/Configuration/maxRecordedBytes``: once one is not kept, no later one of the
/// connection is (``received`` stays a prefix, so message numbers stay right), and each is counted
/// in ``droppedMessages`` and ``ServerCounters/webSocketMessagesDropped``.
package struct WebSocketRecord: Sendable {
  /// The ``RecordedRequest/sequence`` of the upgrade request (in ``LoopbackServer/requests``).
  package var handshakeSequence: Int
  /// The connection it ran on.
  package var connectionID: Int
  /// The upgrade request's path, still percent-encoded.
  package var path: String
  /// The subprotocol the server chose, if any.
  package var subprotocol: String?
  /// The client's messages, whole and in order (a prefix when some were dropped).
  package var received: [WebSocketMessage] = []
  /// The client's messages not kept because the record was full.
  package var droppedMessages = 0
  /// The server's scripted messages, in order, with whether each was written in full.
  package var sent: [WebSocketSentMessage]
  /// The client's close frame, or nil when none arrived.
  package var clientClose: WebSocketClose?
  /// The server's close frame, or nil when it sent none.
  package var serverClose: WebSocketClose?
  /// Whether every byte of the server's close frame was handed to the kernel.
  package var serverCloseWritten = false
  /// Why the server closed the connection for a protocol error, with the close code it sent
  /// (1002, 1007, 1009), or the budget (1013), or nil.
  package var failure: String?
  /// Pings the server answered with a pong.
  package var pingsAnswered = 0

  /// Creates a record; the server makes these.
  package init(
    handshakeSequence: Int, connectionID: Int, path: String, subprotocol: String?, sent: [WebSocketMessage]
  ) {
    self.handshakeSequence = handshakeSequence
    self.connectionID = connectionID
    self.path = path
    self.subprotocol = subprotocol
    self.sent = sent.map { WebSocketSentMessage(message: $0, fullyWritten: false) }
  }
}

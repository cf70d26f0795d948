import Foundation

/// One whole WebSocket message, as sent or received: text or binary.
public enum WebSocketMessage: Sendable, Hashable {
  /// A text message (UTF-8 on the wire).
  case text(String)
  /// A binary message.
  case binary(Data)

  /// The message's payload bytes.
  public var payload: Data {
    switch self {
    case .text(let text): Data(text.utf8)
    case .binary(let data): data
    }
  }

  /// Whether the payload holds `value` as UTF-8 bytes.
  package func contains(_ value: String) -> Bool {
    value.isEmpty || payload.range(of: Data(value.utf8)) != nil
  }
}

/// What the server does on a WebSocket connection it accepted (see
/// ``LoopbackServer/onWebSocket(_:_:)``): the subprotocol it picks, the messages it sends right
/// after its `101` answer, and the reason of the close frame it answers the client's close with.
public struct WebSocketScript: Sendable {
  /// The subprotocol to choose when the client offered it in `Sec-WebSocket-Protocol`; nil (or
  /// one the client did not offer) chooses none.
  package var subprotocol: String?
  /// The messages sent, in order, right after the `101` answer.
  package var messages: [WebSocketMessage]
  /// The reason of the server's close frame (its code echoes the client's); cut to 123 bytes.
  package var closeReason: String
  /// More header fields for the `101` answer.
  package var headers: HTTPHeaders

  /// Creates a script.
  public init(
    subprotocol: String? = nil, messages: [WebSocketMessage] = [], closeReason: String = "",
    headers: HTTPHeaders = [:]
  ) {
    self.subprotocol = subprotocol
    self.messages = messages
    self.closeReason = closeReason
    self.headers = headers
  }
}

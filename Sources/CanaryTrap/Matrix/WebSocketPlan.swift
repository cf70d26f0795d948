import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a WebSocket client does after its opening handshake, carried by each request of
/// `RequestKind.webSocketChat`: the messages to send, how many of the server's messages to read,
/// and the close frame to end with.
///
/// The request itself is the handshake: a `ws://` URL and its header fields (the subprotocols to
/// offer are in `Sec-WebSocket-Protocol`). The plan rides in its `httpBody` as JSON, never sent as
/// a body: a WebSocket transport reads it with ``init(request:)``, opens the connection, sends
/// ``messages`` in order, reads ``expectedServerMessages`` messages, sends a close frame with
/// ``closeCode`` and ``closeReason``, and waits for the server's close frame and the end of the
/// connection (RFC 6455 §7.1.1: the server closes the TCP connection first).
public struct WebSocketPlan: Sendable, Hashable {
  /// The messages to send, in order.
  public var messages: [WebSocketMessage]
  /// How many messages of the server to read before closing.
  public var expectedServerMessages: Int
  /// The status code of the client's close frame.
  public var closeCode: UInt16
  /// The reason of the client's close frame.
  public var closeReason: String

  /// Creates a plan.
  package init(
    messages: [WebSocketMessage], expectedServerMessages: Int, closeCode: UInt16 = 1000,
    closeReason: String = ""
  ) {
    self.messages = messages
    self.expectedServerMessages = expectedServerMessages
    self.closeCode = closeCode
    self.closeReason = closeReason
  }

  private struct Encoded: Codable {
    struct Message: Codable {
      var text: String?
      var base64: String?
    }
    var messages: [Message]
    var expectedServerMessages: Int
    var closeCode: UInt16
    var closeReason: String
  }

  /// The plan a WebSocket kind's `request` carries, or nil when it carries none.
  public init?(request: URLRequest) {
    guard let body = request.httpBody, let encoded = try? JSONDecoder().decode(Encoded.self, from: body)
    else {
      return nil
    }
    var messages: [WebSocketMessage] = []
    for message in encoded.messages {
      if let text = message.text {
        messages.append(.text(text))
      } else if let base64 = message.base64, let data = Data(base64Encoded: base64) {
        messages.append(.binary(data))
      } else {
        return nil
      }
    }
    self.init(
      messages: messages, expectedServerMessages: encoded.expectedServerMessages,
      closeCode: encoded.closeCode, closeReason: encoded.closeReason)
  }

  /// `request` carrying this plan in its `httpBody`.
  package func attached(to request: URLRequest) -> URLRequest {
    let encoded = Encoded(
      messages: messages.map { message in
        switch message {
        case .text(let text): Encoded.Message(text: text)
        case .binary(let data): Encoded.Message(base64: data.base64EncodedString())
        }
      }, expectedServerMessages: expectedServerMessages, closeCode: closeCode, closeReason: closeReason)
    var carrying = request
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    carrying.httpBody = try? encoder.encode(encoded)
    return carrying
  }
}

/// Turns frames into messages (RFC 6455 §5.4–5.6): joins fragments, checks text is UTF-8 and a close
/// frame's code and reason are valid, and lets control frames arrive between fragments.
package struct WebSocketMessageAssembler: Sendable {
  /// What a peer said, a whole message at a time.
  package enum Event: Equatable, Sendable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary([UInt8])
    /// A ping with its application data.
    case ping([UInt8])
    /// A pong with its application data.
    case pong([UInt8])
    /// A close frame: its status code, if it had one, and its reason.
    case close(code: UInt16?, reason: String)
  }

  private var fragments: [UInt8] = []
  private var fragmentedOpcode: WebSocketFrame.Opcode?
  private let maxMessageBytes: Int

  /// An assembler that refuses messages over `maxMessageBytes` (1009).
  package init(maxMessageBytes: Int = WebSocketFrameDecoder.Limits().maxMessageBytes) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// The bytes of the fragmented message still being joined.
  package var pendingBytes: Int { fragments.count }

  /// Forgets the fragments of the message being joined, freeing their memory.
  package mutating func discardPending() {
    fragments = []
    fragmentedOpcode = nil
  }

  /// The event `frame` completes, `nil` when it is a fragment of a message still open, or the
  /// failure to close the connection with.
  package mutating func receive(_ frame: WebSocketFrame) -> Result<Event?, WebSocketFailure> {
    switch frame.opcode {
    case .ping: return .success(.ping(frame.payload))
    case .pong: return .success(.pong(frame.payload))
    case .close: return Self.close(frame.payload).map { $0 }
    case .text, .binary:
      guard fragmentedOpcode == nil else {
        return .failure(
          WebSocketFailure(.protocolError, "a new message began before the fragmented one ended"))
      }
      guard !frame.fin else {
        // A message in one frame is held to the message limit too (it may be below the frame's).
        guard frame.payload.count <= maxMessageBytes else {
          return .failure(
            WebSocketFailure(.messageTooBig, "a message of over \(maxMessageBytes) bytes is over the limit"))
        }
        return Self.message(frame.opcode, frame.payload).map { $0 }
      }
      fragmentedOpcode = frame.opcode
      return append(frame.payload).map { nil }
    case .continuation:
      guard let opcode = fragmentedOpcode else {
        return .failure(WebSocketFailure(.protocolError, "a continuation frame with no message to continue"))
      }
      if case .failure(let failure) = append(frame.payload) { return .failure(failure) }
      guard frame.fin else { return .success(nil) }
      let payload = fragments
      fragments = []
      fragmentedOpcode = nil
      return Self.message(opcode, payload).map { $0 }
    }
  }

  private mutating func append(_ payload: [UInt8]) -> Result<Void, WebSocketFailure> {
    guard fragments.count + payload.count <= maxMessageBytes else {
      return .failure(
        WebSocketFailure(.messageTooBig, "a message of over \(maxMessageBytes) bytes is over the limit"))
    }
    fragments += payload
    return .success(())
  }

  private static func message(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) -> Result<
    Event, WebSocketFailure
  > {
    guard opcode == .text else { return .success(.binary(payload)) }
    guard let text = String(strictUTF8: payload) else {
      return .failure(WebSocketFailure(.invalidPayload, "a text message is not valid UTF-8"))
    }
    return .success(.text(text))
  }

  private static func close(_ payload: [UInt8]) -> Result<Event, WebSocketFailure> {
    guard !payload.isEmpty else { return .success(.close(code: nil, reason: "")) }
    guard payload.count >= 2 else {
      return .failure(WebSocketFailure(.protocolError, "a close frame's payload is one byte"))
    }
    let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
    guard WebSocketCloseCode.mayBeSent(code) else {
      return .failure(WebSocketFailure(.protocolError, "close code \(code) may not be sent"))
    }
    guard let reason = String(strictUTF8: payload.dropFirst(2)) else {
      return .failure(WebSocketFailure(.invalidPayload, "a close frame's reason is not valid UTF-8"))
    }
    return .success(.close(code: code, reason: reason))
  }
}

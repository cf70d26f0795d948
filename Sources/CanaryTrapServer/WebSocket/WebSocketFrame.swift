/// One WebSocket frame (RFC 6455 §5.2): its final-fragment bit, its opcode and its unmasked payload.
package struct WebSocketFrame: Equatable, Sendable {
  /// A frame's opcode (RFC 6455 §5.2, §11.8); other values are a protocol error.
  package enum Opcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong: at most 125 bytes, never fragmented).
    package var isControl: Bool { rawValue & 0x8 != 0 }
  }

  /// Whether this is the last fragment of its message.
  package var fin: Bool
  /// What the frame carries.
  package var opcode: Opcode
  /// The payload, unmasked.
  package var payload: [UInt8]

  /// A frame of `opcode` carrying `payload`.
  package init(fin: Bool = true, opcode: Opcode, payload: [UInt8]) {
    self.fin = fin
    self.opcode = opcode
    self.payload = payload
  }

  /// A close frame with `code` and a UTF-8 `reason` (RFC 6455 §5.5.1), cut to fit 125 bytes.
  package static func close(code: WebSocketCloseCode, reason: String = "") -> WebSocketFrame {
    var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
    var reasonBytes = Array(reason.utf8.prefix(123))
    while String(strictUTF8: reasonBytes) == nil { reasonBytes.removeLast() }
    payload += reasonBytes
    return WebSocketFrame(opcode: .close, payload: payload)
  }

  /// The frame's bytes on the wire: unmasked as a server sends them, or masked with `maskingKey`
  /// (four bytes) as a client must.
  package func encoded(maskingKey: [UInt8]? = nil) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
    let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
    switch payload.count {
    case 0...125: bytes.append(maskBit | UInt8(payload.count))
    case 126...0xFFFF:
      bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
      bytes.append(maskBit | 127)
      bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(56 - 8 * $0)) }
    }
    guard let maskingKey, maskingKey.count == 4 else { return bytes + payload }
    bytes += maskingKey
    bytes += payload.enumerated().map { $0.element ^ maskingKey[$0.offset % 4] }
    return bytes
  }
}

/// The status codes of a close frame this package sends or accepts (RFC 6455 §7.4.1, IANA).
package enum WebSocketCloseCode: UInt16, Sendable {
  case normal = 1000
  case goingAway = 1001
  case protocolError = 1002
  case unsupportedData = 1003
  case invalidPayload = 1007
  case policyViolation = 1008
  case messageTooBig = 1009
  /// The server's buffered-bytes budget is used up (RFC 6455 §7.4.1 registry: Try Again Later).
  case tryAgainLater = 1013

  /// Whether a peer may send `code` in a close frame: 1000–1003, 1007–1014 and 3000–4999; the
  /// rest (1004–1006, 1015, below 1000, 1016–2999, 5000 and up) are a protocol error.
  package static func mayBeSent(_ code: UInt16) -> Bool {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: return true
    default: return false
    }
  }
}

/// A protocol failure found while reading frames: the close code to answer with, and why.
package struct WebSocketFailure: Error, Equatable, Sendable {
  /// The close code the server answers with before closing the connection.
  package var code: WebSocketCloseCode
  /// What was wrong, for the record and the close frame's reason.
  package var reason: String

  /// A failure answered with `code`.
  package init(_ code: WebSocketCloseCode, _ reason: String) {
    self.code = code
    self.reason = reason
  }
}

extension String {
  /// `bytes` as a string when they are valid UTF-8 (no overlong forms, no surrogates), else `nil`.
  package init?(strictUTF8 bytes: some Collection<UInt8>) {
    var iterator = bytes.makeIterator()
    var decoder = Unicode.UTF8()
    var scalars = String.UnicodeScalarView()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): scalars.append(scalar)
      case .emptyInput:
        self = String(scalars)
        return
      case .error: return nil
      }
    }
  }
}

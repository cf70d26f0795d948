/// Reads WebSocket frames from bytes as they arrive, in any pieces (RFC 6455 §5.2), within limits.
///
/// A client's frames must be masked; reserved bits, unknown opcodes, control frames over 125 bytes
/// or fragmented, non-minimal lengths and 64-bit lengths with the top bit set are protocol errors
/// (1002); a frame over ``Limits/maxFramePayload`` is 1009. After a failure it reads nothing more.
package struct WebSocketFrameDecoder: Sendable {
  /// How much a peer may send.
  package struct Limits: Sendable {
    /// The largest payload of one frame.
    package var maxFramePayload: Int
    /// The largest message, all its fragments together.
    package var maxMessageBytes: Int

    /// Limits with 1 MiB frames and 4 MiB messages unless told otherwise.
    package init(maxFramePayload: Int = 1 << 20, maxMessageBytes: Int = 4 << 20) {
      self.maxFramePayload = maxFramePayload
      self.maxMessageBytes = maxMessageBytes
    }
  }

  private var buffer: [UInt8] = []
  private var readIndex = 0
  private var failed = false
  private let requiresMask: Bool
  package let limits: Limits

  /// A decoder for frames a client sends (masked) or, with `requiresMask` false, a server sends.
  package init(requiresMask: Bool = true, limits: Limits = Limits()) {
    self.requiresMask = requiresMask
    self.limits = limits
  }

  /// The bytes received and not yet read as frames.
  package var bufferedBytes: Int { buffer.count - readIndex }

  /// Forgets the bytes not yet read as frames, freeing their memory; reads nothing more.
  package mutating func discardBuffered() {
    failed = true
    buffer = []
    readIndex = 0
  }

  /// Adds bytes as they arrive.
  package mutating func append(_ bytes: some Collection<UInt8>) {
    guard !failed else { return }
    if readIndex > 0, readIndex >= buffer.count / 2 {
      buffer.removeFirst(readIndex)
      readIndex = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, a failure, or `nil` when more bytes are needed.
  package mutating func nextFrame() -> Result<WebSocketFrame, WebSocketFailure>? {
    guard !failed else { return nil }
    switch parseFrame() {
    case .none: return nil
    case .success(let (frame, length)):
      readIndex += length
      return .success(frame)
    case .failure(let failure):
      failed = true
      buffer = []
      readIndex = 0
      return .failure(failure)
    }
  }

  private func parseFrame() -> Result<(WebSocketFrame, Int), WebSocketFailure>? {
    let available = buffer.count - readIndex
    guard available >= 2 else { return nil }
    let first = buffer[readIndex]
    let second = buffer[readIndex + 1]
    guard first & 0x70 == 0 else {
      return .failure(WebSocketFailure(.protocolError, "a reserved bit is set and no extension was agreed"))
    }
    guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
      return .failure(WebSocketFailure(.protocolError, "opcode \(first & 0x0F) is reserved"))
    }
    let fin = first & 0x80 != 0
    let masked = second & 0x80 != 0
    if requiresMask && !masked {
      return .failure(WebSocketFailure(.protocolError, "a client frame is not masked"))
    }
    var offset = 2
    var length = UInt64(second & 0x7F)
    if length == 126 {
      guard available >= 4 else { return nil }
      length = UInt64(buffer[readIndex + 2]) << 8 | UInt64(buffer[readIndex + 3])
      offset = 4
      guard length >= 126 else {
        return .failure(WebSocketFailure(.protocolError, "a 16-bit length of \(length) is not minimal"))
      }
    } else if length == 127 {
      guard available >= 10 else { return nil }
      length = (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[readIndex + 2 + $1]) }
      offset = 10
      guard length >> 63 == 0 else {
        return .failure(WebSocketFailure(.protocolError, "a 64-bit length has its top bit set"))
      }
      guard length > 0xFFFF else {
        return .failure(WebSocketFailure(.protocolError, "a 64-bit length of \(length) is not minimal"))
      }
    }
    if opcode.isControl {
      guard length <= 125 else {
        return .failure(WebSocketFailure(.protocolError, "a control frame carries \(length) bytes, over 125"))
      }
      guard fin else { return .failure(WebSocketFailure(.protocolError, "a control frame is fragmented")) }
    }
    guard length <= UInt64(limits.maxFramePayload) else {
      return .failure(
        WebSocketFailure(
          .messageTooBig, "a frame of \(length) bytes is over the limit of \(limits.maxFramePayload)"))
    }
    let maskLength = masked ? 4 : 0
    let total = offset + maskLength + Int(length)
    guard available >= total else { return nil }
    let payloadStart = readIndex + offset + maskLength
    var payload = Array(buffer[payloadStart..<payloadStart + Int(length)])
    if masked {
      let key = buffer[(readIndex + offset)..<(readIndex + offset + 4)].map { $0 }
      for index in payload.indices { payload[index] ^= key[index % 4] }
    }
    return .success((WebSocketFrame(fin: fin, opcode: opcode, payload: payload), total))
  }
}

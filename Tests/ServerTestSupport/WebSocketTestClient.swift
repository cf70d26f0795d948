import CanaryTrapServer
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking WebSocket client for the tests (RFC 6455, client side) on a real socket, framing and
/// masking with the package's codec. FoundationNetworking's `URLSessionWebSocketTask` cannot open
/// a WebSocket with this machine's libcurl (see `PlatformStreamingTests`), so the tests drive the
/// server with this. Every read has the socket's receive timeout, so nothing hangs.
package final class WebSocketTestClient {
  package let raw: RawClient
  private var decoder = WebSocketFrameDecoder(requiresMask: false)
  /// The opening handshake's answer head, once read.
  package private(set) var responseHead = ""

  package init(port: UInt16, receiveTimeout: TimeInterval = 3) throws {
    raw = try RawClient(port: port, receiveTimeout: receiveTimeout)
  }

  /// A fresh `Sec-WebSocket-Key`.
  package static func makeKey() -> String {
    Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
  }

  /// Sends an upgrade request for `target` with `headers` (the standard ones unless overridden)
  /// and reads the answer's head; returns its status (0 when none arrived).
  @discardableResult
  package func handshake(
    target: String, headers: [(String, String)] = [], key: String = makeKey(), version: String = "13"
  ) -> Int {
    var lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1"]
    let names = Set(headers.map { $0.0.lowercased() })
    let standard = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", key),
      ("Sec-WebSocket-Version", version),
    ]
    for (name, value) in standard where !names.contains(name.lowercased()) {
      lines.append("\(name): \(value)")
    }
    for (name, value) in headers { lines.append("\(name): \(value)") }
    raw.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
    var bytes: [UInt8] = []
    let separator = Array("\r\n\r\n".utf8)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      if let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
        responseHead = String(decoding: bytes[..<end], as: UTF8.self)
        let status = Int(responseHead.split(separator: " ").dropFirst().first ?? "") ?? 0
        // A refusal's body is not read as frames; after a 101 the rest is the first frames.
        if status == 101 { decoder.append(bytes[(end + 4)...]) }
        return status
      }
      let count = buffer.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return 0 }
      bytes.append(contentsOf: buffer[0..<count])
    }
  }

  /// The value of header `name` in the handshake's answer.
  package func responseHeader(_ name: String) -> String? {
    for line in responseHead.split(separator: "\r\n").dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == name.lowercased() {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }

  /// Sends `frame`, masked with a fresh key as a client must.
  package func send(_ frame: WebSocketFrame) {
    raw.send(frame.encoded(maskingKey: (0..<4).map { _ in UInt8.random(in: 0...255) }))
  }

  /// Sends `message` as one frame, or as `fragments` frames.
  package func send(_ message: WebSocketMessage, fragments: Int = 1) {
    let opcode: WebSocketFrame.Opcode
    switch message {
    case .text: opcode = .text
    case .binary: opcode = .binary
    }
    let payload = Array(message.payload)
    let size = max(1, (payload.count + fragments - 1) / max(1, fragments))
    let pieces = stride(from: 0, to: max(payload.count, 1), by: size).map {
      Array(payload[$0..<min(payload.count, $0 + size)])
    }
    for (index, piece) in pieces.enumerated() {
      send(
        WebSocketFrame(
          fin: index == pieces.count - 1, opcode: index == 0 ? opcode : .continuation, payload: piece))
    }
  }

  /// The next frame from the server, or nil when the connection closed or the timeout passed.
  package func nextFrame() -> WebSocketFrame? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      switch decoder.nextFrame() {
      case .success(let frame)?: return frame
      case .failure?: return nil
      case nil: break
      }
      let count = buffer.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return nil }
      decoder.append(buffer[0..<count])
    }
  }

  /// The next message from the server (pings answered, pongs skipped), its close frame as
  /// `.close`, or nil when the connection ended or the timeout passed.
  package func nextEvent() -> WebSocketMessageAssembler.Event? {
    var assembler = WebSocketMessageAssembler()
    while let frame = nextFrame() {
      switch assembler.receive(frame) {
      case .success(.ping(let payload)?): send(WebSocketFrame(opcode: .pong, payload: payload))
      case .success(.pong?), .success(nil): continue
      case .success(let event?): return event
      case .failure: return nil
      }
    }
    return nil
  }

  /// Whether the server closed the connection (end of stream) before the receive timeout.
  package func readsEndOfStream() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
      if count > 0 { continue }
      return count == 0 || errno == ECONNRESET
    }
  }
}

import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking RFC 6455 client connection to a loopback port, framing and masking with the
/// package's codec. FoundationNetworking cannot open a WebSocket on Linux, so the chat example
/// uses this there (an app on Apple platforms would use `URLSessionWebSocketTask`). Every read
/// has the socket's receive timeout, so nothing hangs.
final class WebSocketConnection {
  /// Why a connection could not be opened or went wrong.
  enum Failure: Error {
    case socket(String, Int32)
    case handshake(String)
    case closedEarly
  }

  private let fd: Int32
  private var decoder = WebSocketFrameDecoder(requiresMask: false)
  private var assembler = WebSocketMessageAssembler()
  /// The handshake answer's header fields, once it was read.
  private(set) var responseHeaders: [String: String] = [:]

  /// Connects to `127.0.0.1:port` with a receive timeout of `timeout` seconds.
  init(port: UInt16, timeout: Int = 5) throws {
    let fd = socket(AF_INET, SocketShims.streamType, 0)
    guard fd >= 0 else { throw Failure.socket("socket", errno) }
    var interval = timeval()
    interval.tv_sec = .init(timeout)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    SocketShims.suppressBrokenPipeSignal(fd)
    guard SocketShims.withLoopbackAddress(ipv6: false, port: port, { connect(fd, $0, $1) }) == 0 else {
      let code = errno
      SocketShims.closeDescriptor(fd)
      throw Failure.socket("connect", code)
    }
    self.fd = fd
  }

  deinit { SocketShims.closeDescriptor(fd) }

  /// Sends the opening handshake for `target` with `headers` and checks the `101` answer and its
  /// `Sec-WebSocket-Accept`.
  func open(target: String, headers: [(String, String)]) throws {
    let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    var lines = [
      "GET \(target) HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
      "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13",
    ]
    for (name, value) in headers { lines.append("\(name): \(value)") }
    try write(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    var bytes: [UInt8] = []
    let separator = Array("\r\n\r\n".utf8)
    while true {
      if let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
        let head = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        for line in head.dropFirst() {
          let parts = line.split(separator: ":", maxSplits: 1)
          if parts.count == 2 {
            responseHeaders[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
          }
        }
        guard head.first?.split(separator: " ").dropFirst().first == "101" else {
          throw Failure.handshake(String(head.first ?? "no status line"))
        }
        let accept = responseHeaders.first { $0.key.lowercased() == "sec-websocket-accept" }?.value
        guard accept == WebSocketHandshake.acceptValue(forKey: key) else {
          throw Failure.handshake("Sec-WebSocket-Accept does not match the key")
        }
        decoder.append(bytes[(end + 4)...])
        return
      }
      guard let piece = read(), !piece.isEmpty else { throw Failure.closedEarly }
      bytes += piece
    }
  }

  /// Sends `message` in one masked frame.
  func send(_ message: WebSocketMessage) throws {
    switch message {
    case .text(let text): try send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    case .binary(let data): try send(WebSocketFrame(opcode: .binary, payload: Array(data)))
    }
  }

  /// Sends `frame`, masked with a fresh key as a client must.
  func send(_ frame: WebSocketFrame) throws {
    try write(frame.encoded(maskingKey: (0..<4).map { _ in UInt8.random(in: 0...255) }))
  }

  /// The next message or close frame from the server (pings answered, pongs skipped); nil when
  /// the connection ended.
  func receive() throws -> WebSocketMessageAssembler.Event? {
    while true {
      switch decoder.nextFrame() {
      case .failure(let failure)?: throw Failure.handshake("the server sent a bad frame: \(failure.reason)")
      case .success(let frame)?:
        switch assembler.receive(frame) {
        case .failure(let failure):
          throw Failure.handshake("the server sent a bad message: \(failure.reason)")
        case .success(.ping(let payload)?): try send(WebSocketFrame(opcode: .pong, payload: payload))
        case .success(.pong?), .success(nil): continue
        case .success(let event?): return event
        }
      case nil:
        guard let piece = read(), !piece.isEmpty else { return nil }
        decoder.append(piece)
      }
    }
  }

  /// Waits for the server to end the connection (RFC 6455 §7.1.1: after the close handshake the
  /// server closes the TCP connection first); true when it did before the timeout.
  func readsEndOfStream() -> Bool {
    while let piece = read() {
      if piece.isEmpty { return true }
    }
    return false
  }

  private func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        #if canImport(Glibc)
          Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, SocketShims.sendFlags)
        #else
          Darwin.send(fd, buffer.baseAddress! + offset, buffer.count - offset, SocketShims.sendFlags)
        #endif
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw Failure.socket("send", errno) }
      offset += count
    }
  }

  /// The next bytes, empty at the end of the stream; nil when the receive timeout passed or the
  /// connection failed.
  private func read() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 { return Array(buffer[0..<count]) }
      if count == 0 { return [] }
      if errno == EINTR { continue }
      return nil
    }
  }
}

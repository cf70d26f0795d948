import CanaryTrapPrimitives
import CanaryTrapServer
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-connection HTTP/1.1 listener on a real loopback socket that holds back `100 Continue`
/// for `holdBack`, to see whether a client with `Expect: 100-continue` waits for it before
/// sending its body (the loopback server answers 100 at once, so it cannot tell).
final class ContinueProbe: @unchecked Sendable {
  /// What the probe saw of the one request.
  struct Seen: Sendable {
    /// The request head, up to the empty line.
    var head: String
    /// Body bytes that arrived while `100 Continue` was held back.
    var earlyBodyBytes: Int
    /// The whole body, once `100 Continue` was sent.
    var body: Data
    /// Whether the head asked for `100-continue`.
    var expectsContinue: Bool {
      head.lowercased().split(separator: "\r\n").contains {
        $0.hasPrefix("expect:") && $0.contains("100-continue")
      }
    }
  }

  let port: UInt16
  private let listener: Int32
  private let seen = Locked<Seen?>(nil)
  private let done = DispatchSemaphore(value: 0)

  /// Listens on 127.0.0.1 and serves one request on a thread of its own.
  init(holdBack: TimeInterval = 0.4) throws {
    let fd = socket(AF_INET, SocketShims.streamType, 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    SocketShims.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
    guard SocketShims.withLoopbackAddress(ipv6: false, port: 0, { bind(fd, $0, $1) }) == 0, listen(fd, 4) == 0
    else {
      SocketShims.closeDescriptor(fd)
      throw SocketError(call: "bind", code: errno)
    }
    listener = fd
    port = try ListeningSocket.localAddress(fd).port
    let thread = Thread { [self] in
      serve(holdBack: holdBack)
      done.signal()
    }
    thread.start()
  }

  deinit { SocketShims.closeDescriptor(listener) }

  /// What the probe saw, once it answered (nil if no request came within `timeout`).
  func wait(timeout: TimeInterval = 10) -> Seen? {
    guard done.wait(timeout: .now() + timeout) == .success else { return nil }
    return seen.current
  }

  private func serve(holdBack: TimeInterval) {
    let client = accept(listener, nil, nil)
    guard client >= 0 else { return }
    defer { SocketShims.closeDescriptor(client) }
    SocketShims.suppressBrokenPipeSignal(client)
    var bytes: [UInt8] = []
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil, read(client, into: &bytes, timeout: 5) {
      headEnd = find(separator, in: bytes).map { $0 + separator.count }
    }
    guard let headEnd else { return }
    let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
    let length =
      head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
    let chunked = head.lowercased().contains("transfer-encoding: chunked")
    var body = Array(bytes[headEnd...])
    // A chunked body is read until its last chunk (a probe body has no trailers).
    func complete() -> Bool {
      chunked ? find(Array("0\r\n\r\n".utf8), in: body) != nil : body.count >= length
    }
    let deadline = Date().addingTimeInterval(holdBack)
    while !complete(), Date() < deadline,
      read(client, into: &body, timeout: max(0.01, deadline.timeIntervalSinceNow))
    {}
    let early = body.count
    let expects = Seen(head: head, earlyBodyBytes: 0, body: Data()).expectsContinue
    if expects && !complete() { write(client, "HTTP/1.1 100 Continue\r\n\r\n") }
    while !complete(), read(client, into: &body, timeout: 5) {}
    seen.withLock { $0 = Seen(head: head, earlyBodyBytes: early, body: Data(body)) }
    write(client, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
  }

  private func read(_ fd: Int32, into bytes: inout [UInt8], timeout: TimeInterval) -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return false }
    bytes.append(contentsOf: buffer[0..<count])
    return true
  }

  private func write(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, SocketShims.sendFlags) }
  }

  private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<$0 + needle.count]) == needle }
  }
}

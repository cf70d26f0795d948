import CanaryTrapServer
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking test client on a real socket, with a receive timeout so that no test can hang.
package final class RawClient {
  package let fd: Int32

  package init(port: UInt16, ipv6: Bool = false, receiveTimeout: TimeInterval = 3) throws {
    // The descriptor is stored only once connected: a throwing class initializer that has set
    // every property runs deinit, which would close the descriptor a second time.
    let fd = socket(ipv6 ? AF_INET6 : AF_INET, SocketShims.streamType, 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    var timeout = timeval()
    timeout.tv_sec = .init(receiveTimeout)
    timeout.tv_usec = .init(receiveTimeout.truncatingRemainder(dividingBy: 1) * 1_000_000)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    SocketShims.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    SocketShims.suppressBrokenPipeSignal(fd)
    let result = SocketShims.withLoopbackAddress(ipv6: ipv6, port: port) { connect(fd, $0, $1) }
    guard result == 0 else {
      let code = errno
      SocketShims.closeDescriptor(fd)
      throw SocketError(call: "connect", code: code)
    }
    self.fd = fd
  }

  deinit { SocketShims.closeDescriptor(fd) }

  package func send(_ text: String) { send(Array(text.utf8)) }

  /// Sends all of `bytes`; returns 0 when they went out, else the `errno` of the failed `send`
  /// (`EPIPE` once the peer is gone: never a `SIGPIPE`).
  @discardableResult
  package func send(_ bytes: [UInt8]) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        SystemCalls.send(fd, $0.baseAddress! + offset, $0.count - offset, SocketShims.sendFlags)
      }
      if count <= 0 { return count < 0 ? errno : EPIPE }
      offset += count
    }
    return 0
  }

  /// Reads until the peer closes or the receive timeout passes; `closed` tells which.
  package func readToEnd() -> (text: String, closed: Bool) {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        bytes.append(contentsOf: buffer[0..<count])
      } else {
        return (String(decoding: bytes, as: UTF8.self), count == 0 || errno == ECONNRESET)
      }
    }
  }

  /// Reads exactly `count` complete responses framed by Content-Length (nil on timeout or close).
  package func readResponses(_ count: Int) -> [String]? {
    var pending: [UInt8] = []
    var responses: [String] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while responses.count < count {
      while let response = Self.takeResponse(&pending) {
        responses.append(response)
        if responses.count == count { return responses }
      }
      let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if received <= 0 { return nil }
      pending.append(contentsOf: buffer[0..<received])
    }
    return responses
  }

  package func readResponse() -> String? { readResponses(1)?.first }

  private static func takeResponse(_ pending: inout [UInt8]) -> String? {
    let separator = Array("\r\n\r\n".utf8)
    guard let headEnd = pending.indices.first(where: { pending[$0...].starts(with: separator) }) else {
      return nil
    }
    let head = String(decoding: pending[..<headEnd], as: UTF8.self)
    var length = 0
    for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
      length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    let end = headEnd + 4 + length
    guard pending.count >= end else { return nil }
    let response = String(decoding: pending[..<end], as: UTF8.self)
    pending.removeFirst(end)
    return response
  }
}

/// The C library's calls, spelled out where a method of the same name hides them.
package enum SystemCalls {
  package static func send(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
      Glibc.send(fd, pointer, count, flags)
    #else
      Darwin.send(fd, pointer, count, flags)
    #endif
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback TCP port bound and never listened on: every connection to it is refused at once
/// (the kernel answers with a reset), and no other socket can take the port while it is held.
struct RefusingPort {
  /// The bound descriptor.
  let fd: Int32
  /// The port the kernel assigned.
  let port: UInt16

  /// Binds an ephemeral port on `127.0.0.1` (or `::1` when `ipv6`) without listening.
  init(ipv6: Bool) throws {
    let fd = socket(ipv6 ? AF_INET6 : AF_INET, SocketShims.streamType, 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    do {
      if ipv6 { SocketShims.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1) }
      let result = SocketShims.withLoopbackAddress(ipv6: ipv6, port: 0) { bind(fd, $0, $1) }
      guard result == 0 else { throw SocketError(call: "bind", code: errno) }
      self.fd = fd
      self.port = try ListeningSocket.localAddress(fd).port
    } catch {
      SocketShims.closeDescriptor(fd)
      throw error
    }
  }

  /// Releases the port.
  func close() {
    SocketShims.closeDescriptor(fd)
  }
}

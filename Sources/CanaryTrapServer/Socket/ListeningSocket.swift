#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A non-blocking TCP listener bound to a loopback address only.
///
/// There is deliberately no way to pass an address: the listener binds 127.0.0.1 or ::1.
package struct ListeningSocket {
  /// The listening descriptor.
  let fd: Int32
  /// The port the kernel assigned (or the one asked for).
  let port: UInt16
  /// The numeric address actually bound, read back with `getsockname`.
  let boundAddress: String

  /// The pending-connection queue asked of `listen`: the platform's own `SOMAXCONN` (128 on
  /// Darwin, 4096 in current glibc). The kernel caps a larger request at its `somaxconn` setting
  /// without saying so, so asking for more would only promise a queue that is not there.
  static let defaultBacklog = Int32(SOMAXCONN)

  /// Binds `127.0.0.1` (or `::1` when `ipv6`) on `port` (0 = ephemeral) and starts listening.
  init(ipv6: Bool, port: UInt16, backlog: Int32 = ListeningSocket.defaultBacklog) throws {
    let fd = socket(ipv6 ? AF_INET6 : AF_INET, SocketShims.streamType, 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    do {
      SocketShims.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
      if ipv6 { SocketShims.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1) }
      let result = SocketShims.withLoopbackAddress(ipv6: ipv6, port: port) { bind(fd, $0, $1) }
      guard result == 0 else { throw SocketError(call: "bind", code: errno) }
      guard listen(fd, backlog) == 0 else { throw SocketError(call: "listen", code: errno) }
      try SocketShims.configureStream(fd)
      let (boundPort, address) = try Self.localAddress(fd)
      self.fd = fd
      self.port = boundPort
      self.boundAddress = address
    } catch {
      SocketShims.closeDescriptor(fd)
      throw error
    }
  }

  /// Reads back the bound port and numeric address.
  package static func localAddress(_ fd: Int32) throws -> (port: UInt16, address: String) {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw SocketError(call: "getsockname", code: errno) }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    if Int32(storage.ss_family) == AF_INET6 {
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
          var address = pointer.pointee.sin6_addr
          inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
          return (
            UInt16(bigEndian: pointer.pointee.sin6_port),
            String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
          )
        }
      }
    }
    return withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
        var address = pointer.pointee.sin_addr
        inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
        return (
          UInt16(bigEndian: pointer.pointee.sin_port),
          String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        )
      }
    }
  }

  /// The outcome of one `accept`.
  enum AcceptResult {
    /// A new connection, configured for the loop.
    case accepted(Int32)
    /// Nothing is waiting.
    case none
    /// The process or system is out of descriptors; pause accepting for a moment.
    case outOfDescriptors
  }

  /// Accepts one pending connection.
  func acceptConnection() -> AcceptResult {
    while true {
      let client = accept(fd, nil, nil)
      if client >= 0 {
        do {
          try SocketShims.configureStream(client)
          return .accepted(client)
        } catch {
          SocketShims.closeDescriptor(client)
          continue
        }
      }
      switch errno {
      case EINTR, ECONNABORTED: continue
      case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
      default: return .none
      }
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error from a socket system call, naming the call and the `errno` it set.
package struct SocketError: Error, CustomStringConvertible, Sendable {
  /// The system call that failed.
  package var call: String
  /// The `errno` value it set.
  package var code: Int32

  /// An error for `call`, which set `errno` to `code`.
  package init(call: String, code: Int32) {
    self.call = call
    self.code = code
  }

  /// Describes the failure with the call, the errno and its text.
  package var description: String { "\(call) failed: errno \(code) (\(String(cString: strerror(code))))" }
}

/// Thin wrappers over the POSIX socket calls that differ between Glibc and Darwin.
package enum SocketShims {
  package static var streamType: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  /// The flags for `send`: no SIGPIPE on Linux (Darwin uses `SO_NOSIGPIPE` on the socket).
  package static var sendFlags: Int32 {
    #if canImport(Glibc)
      Int32(MSG_NOSIGNAL)
    #else
      0
    #endif
  }

  package static func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  static func setNonBlocking(_ fd: Int32) throws {
    let flags = fcntl(fd, F_GETFL, 0)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) >= 0 else {
      throw SocketError(call: "fcntl(O_NONBLOCK)", code: errno)
    }
  }

  package static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
    var value = value
    _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Prepares an accepted or listening socket: non-blocking, no Nagle, no SIGPIPE.
  static func configureStream(_ fd: Int32) throws {
    try setNonBlocking(fd)
    setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    suppressBrokenPipeSignal(fd)
  }

  /// Makes writing to a socket whose peer has gone fail with `EPIPE` instead of raising
  /// `SIGPIPE` (which kills the process): `SO_NOSIGPIPE` on Darwin; Linux has no such socket
  /// option, so every `send` there passes ``sendFlags`` (`MSG_NOSIGNAL`) instead.
  package static func suppressBrokenPipeSignal(_ fd: Int32) {
    #if canImport(Darwin)
      setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
    #endif
  }

  /// Makes the next `close` send a TCP reset instead of a clean FIN.
  static func setResetOnClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
  }

  static func shutdownWrite(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    #else
      _ = Darwin.shutdown(fd, SHUT_WR)
    #endif
  }

  /// Raises the soft limit on open files towards the hard limit so that many clients fit, and
  /// returns the soft limit then in force (nil when it cannot be read).
  @discardableResult
  static func raiseOpenFileLimit(to wanted: UInt64 = 16_384) -> Int? {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return nil }
    var target = min(rlim_t(wanted), limit.rlim_max)
    #if canImport(Darwin)
      target = min(target, rlim_t(OPEN_MAX))  // Darwin refuses a soft limit above OPEN_MAX.
    #endif
    if limit.rlim_cur < target {
      var raised = limit
      raised.rlim_cur = target
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return limit.rlim_cur >= rlim_t(Int32.max) ? nil : Int(limit.rlim_cur)
  }

  /// Hands freed heap memory back to the system (glibc keeps large freed blocks otherwise, so a
  /// few big request bodies would stay resident after they are gone); does nothing elsewhere.
  static func releaseFreedMemory() {
    #if canImport(Glibc)
      _ = mallocTrim?(0)
    #endif
  }

  #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up once (its header is not part of the Glibc module).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
  #endif

  static func makePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw SocketError(call: "pipe", code: errno) }
    try setNonBlocking(fds[0])
    try setNonBlocking(fds[1])
    return (fds[0], fds[1])
  }

  static var isWouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

  /// Calls `body` (`bind` or `connect`) with the address of `127.0.0.1:port`, or `[::1]:port`
  /// when `ipv6`, and returns what it returns.
  package static func withLoopbackAddress(
    ipv6: Bool, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    if ipv6 {
      var address = sockaddr_in6()
      #if canImport(Darwin)
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
      #endif
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      address.sin6_addr = in6addr_loopback
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    }
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }
}

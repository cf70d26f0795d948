import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server only ever listens on loopback: the address read back with `getsockname`, the
/// kernel's own socket table, and a connection attempt through each non-loopback address of the
/// machine all agree.
@Suite("Loopback-only binding")
struct LoopbackBindingTests {
  @Test("the server binds 127.0.0.1 or ::1 and nothing else", arguments: [false, true])
  func bindsLoopbackOnly(ipv6: Bool) throws {
    var configuration = LoopbackServer.Configuration()
    configuration.host = ipv6 ? .ipv6 : .ipv4
    let server = LoopbackServer(configuration: configuration)
    do {
      try server.start()
    } catch  where ipv6 {
      // A machine without IPv6 loopback cannot bind ::1 at all, which is also safe.
      DidNotRun.record("no IPv6 loopback on this machine (\(error)): the ::1 binding was not checked")
      return
    }
    defer { server.stop() }
    #expect(server.boundAddress == (ipv6 ? "::1" : "127.0.0.1"))
    #expect(server.baseURL.host == (ipv6 ? "::1" : "127.0.0.1") || server.baseURL.host == "[::1]")
    #if os(Linux)
      // The kernel builds /proc/net/tcp while other tests open and close sockets, so one read
      // may miss a row: read until the listener shows up, and check every read.
      let loopback = ipv6 ? "00000000000000000000000001000000" : "0100007F"
      var reads: [[String]] = []
      repeat {
        reads.append(Self.kernelListeners(port: server.port, ipv6: ipv6))
      } while reads.last!.isEmpty && reads.count < 20
      #expect(reads.last == [loopback], "\(reads)")
      #expect(reads.allSatisfy { $0.allSatisfy { $0 == loopback } }, "\(reads)")
    #endif
    #expect(Self.canConnect(to: ipv6 ? "::1" : "127.0.0.1", port: server.port, ipv6: ipv6))
    for address in Self.nonLoopbackAddresses(ipv6: ipv6) {
      #expect(!Self.canConnect(to: address, port: server.port, ipv6: ipv6), "reachable via \(address)")
    }
  }

  @Test("the scope's own server is on loopback too")
  func scopeServerIsLoopback() async throws {
    let trap = CanaryTrap(title: "bind", configuration: .init(captureStandardStreams: false))
    try await trap.start()
    #expect(trap.server.boundAddress == "127.0.0.1")
    #expect(trap.baseURL.host == "127.0.0.1")
    _ = await trap.finish()
    #expect(trap.server.boundAddress == nil, "finishing the scope closes the listener")
  }

  /// The local addresses (hex, as the kernel prints them) of every listening socket on `port`.
  static func kernelListeners(port: UInt16, ipv6: Bool) -> [String] {
    let table = readWholeFile(ipv6 ? "/proc/net/tcp6" : "/proc/net/tcp")
    let portHex = String(format: "%04X", Int(port))
    return table.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count > 3, fields[3] == "0A" else { return nil }  // 0A = LISTEN
      let local = fields[1].split(separator: ":")
      guard local.count == 2, local[1] == portHex else { return nil }
      return String(local[0])
    }
  }

  /// A `/proc` file read to its end with plain `read` calls (its reported size is 0, and under
  /// load it is generated page by page).
  static func readWholeFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The machine's own addresses outside loopback, from `getifaddrs`.
  static func nonLoopbackAddresses(ipv6: Bool) -> [String] {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return [] }
    defer { freeifaddrs(list) }
    var result: [String] = []
    for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
      guard let address = entry.pointee.ifa_addr,
        Int32(address.pointee.sa_family) == (ipv6 ? AF_INET6 : AF_INET)
      else { continue }
      var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
      let length = socklen_t(ipv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
      guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
      else { continue }
      let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if name == "127.0.0.1" || name == "::1" || name.hasPrefix("fe80") || name.contains("%") { continue }
      result.append(name)
    }
    return result
  }

  /// Whether a TCP connection to `address`:`port` succeeds.
  static func canConnect(to address: String, port: UInt16, ipv6: Bool) -> Bool {
    #if canImport(Glibc)
      let stream = Int32(SOCK_STREAM.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    let fd = socket(ipv6 ? AF_INET6 : AF_INET, stream, 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if ipv6 {
      var target = sockaddr_in6()
      target.sin6_family = sa_family_t(AF_INET6)
      target.sin6_port = port.bigEndian
      guard inet_pton(AF_INET6, address, &target.sin6_addr) == 1 else { return false }
      return withUnsafePointer(to: &target) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
        }
      }
    }
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_port = port.bigEndian
    guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { return false }
    return withUnsafePointer(to: &target) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

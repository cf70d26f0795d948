import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The socket settings that differ between Linux and Darwin: the listen backlog and SIGPIPE.
@Suite("Socket platform settings")
struct SocketPlatformTests {
  @Test func listenBacklogIsThePlatformsOwnMaximum() {
    #expect(ListeningSocket.defaultBacklog == Int32(SOMAXCONN))
    // 128 on Darwin, 4096 in glibc: never more than a Linux kernel accepts by default.
    #expect(ListeningSocket.defaultBacklog <= 4096)
  }

  @Test func theDefaultBacklogQueuesConnectionsUntilAccepted() throws {
    let listener = try ListeningSocket(ipv6: false, port: 0)
    defer { SocketShims.closeDescriptor(listener.fd) }
    // Fewer than the smallest SOMAXCONN (Darwin's 128): every one completes its handshake
    // before the server accepts anything.
    let clients = try (0..<32).map { _ in try RawClient(port: listener.port) }
    var accepted: [Int32] = []
    defer { accepted.forEach(SocketShims.closeDescriptor) }
    let deadline = Date().addingTimeInterval(3)
    while accepted.count < clients.count, Date() < deadline {
      if case .accepted(let fd) = listener.acceptConnection() {
        accepted.append(fd)
      } else {
        usleep(1_000)
      }
    }
    #expect(accepted.count == clients.count)
  }

  @Test func sendingToAClosedPeerFailsWithAnErrorInsteadOfSIGPIPE() throws {
    let listener = try ListeningSocket(ipv6: false, port: 0)
    defer { SocketShims.closeDescriptor(listener.fd) }
    let client = try RawClient(port: listener.port, receiveTimeout: 1)
    #if canImport(Darwin)
      var value: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      #expect(getsockopt(client.fd, SOL_SOCKET, SO_NOSIGPIPE, &value, &length) == 0)
      #expect(value != 0)
    #else
      #expect(SocketShims.sendFlags & Int32(MSG_NOSIGNAL) != 0)
    #endif
    let peer = try #require(acceptOne(listener))
    SocketShims.setResetOnClose(peer)
    SocketShims.closeDescriptor(peer)
    // The first send after the reset may still be buffered; a later one must fail. Were SIGPIPE
    // raised, the test process would die here instead of failing an expectation.
    var failure: Int32 = 0
    for _ in 0..<50 where failure == 0 {
      failure = client.send(Array(repeating: UInt8(ascii: "x"), count: 65_536))
      if failure == 0 { usleep(10_000) }
    }
    #expect(failure == EPIPE || failure == ECONNRESET)
  }

  private func acceptOne(_ listener: ListeningSocket) -> Int32? {
    let deadline = Date().addingTimeInterval(3)
    while Date() < deadline {
      if case .accepted(let fd) = listener.acceptConnection() { return fd }
      usleep(1_000)
    }
    return nil
  }
}

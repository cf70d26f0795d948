import CanaryCLI
import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The hostile and measuring clients of `canary-bench soak`, each on its own thread with
/// blocking loopback sockets, stopped through a shared flag.
enum SoakClients {
  /// Connects to 127.0.0.1:`port`; nil when the connection is refused.
  static func connect(port: UInt16, receiveTimeout: Double = 2, sendTimeout: Double = 1) -> Int32? {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return nil }
    for (option, seconds) in [(SO_RCVTIMEO, receiveTimeout), (SO_SNDTIMEO, sendTimeout)] {
      var timeout = timeval()
      timeout.tv_sec = .init(seconds)
      timeout.tv_usec = .init(seconds.truncatingRemainder(dividingBy: 1) * 1_000_000)
      _ = setsockopt(fd, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let result = SocketShims.withLoopbackAddress(ipv6: false, port: port) { systemConnect(fd, $0, $1) }
    guard result == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// Flags for send(2): no SIGPIPE when the server has closed.
  static var sendFlags: Int32 {
    #if canImport(Glibc)
      Int32(MSG_NOSIGNAL)
    #else
      0
    #endif
  }

  /// Sends every byte of `bytes`; false when the socket failed or timed out.
  static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        send(fd, $0.baseAddress! + offset, $0.count - offset, SoakClients.sendFlags)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      offset += count
    }
    return true
  }

  /// Measures one keep-alive request at a time every `interval`, reconnecting when closed.
  final class Probe: @unchecked Sendable {
    struct Result {
      var latencies: [Double] = []
      var failures = 0
    }

    let port: UInt16
    let interval: Duration
    private let stopFlag = Locked(false)
    private let result = Locked(Result())
    private let done = DispatchSemaphore(value: 0)

    init(port: UInt16, interval: Duration) {
      self.port = port
      self.interval = interval
    }

    /// Starts (or restarts) probing on a new thread.
    func start() {
      stopFlag.withLock { $0 = false }
      Thread { [self] in
        run()
        done.signal()
      }.start()
    }

    /// Stops the probe and returns what it measured since the last call.
    func stop() -> Result {
      stopFlag.withLock { $0 = true }
      done.wait()
      return result.withLock { value in
        defer { value = Result() }
        return value
      }
    }

    private func run() {
      let request = Array("GET /probe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
      var buffer = [UInt8](repeating: 0, count: 65_536)
      var fd: Int32?
      while !stopFlag.current {
        if fd == nil { fd = SoakClients.connect(port: port) }
        guard let socket = fd else {
          result.withLock { $0.failures += 1 }
          Thread.sleep(forTimeInterval: 0.01)
          continue
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var pending: [UInt8] = []
        var ok = SoakClients.sendAll(socket, request)
        while ok && !SequentialLatencyClient.isCompleteResponse(pending) {
          let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
          if count > 0 { pending.append(contentsOf: buffer[0..<count]) } else { ok = false }
        }
        if ok {
          let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
          result.withLock { $0.latencies.append(seconds) }
        } else {
          result.withLock { $0.failures += 1 }
          close(socket)
          fd = nil
        }
        Thread.sleep(
          forTimeInterval: Double(interval.components.attoseconds) / 1e18
            + Double(interval.components.seconds))
      }
      if let fd { close(fd) }
    }
  }

  /// Pipelines requests as fast as the server takes them and never reads an answer.
  final class Flooder: @unchecked Sendable {
    let port: UInt16
    private let stopFlag = Locked(false)
    private let sent = Locked(0)
    private let done = DispatchSemaphore(value: 0)

    init(port: UInt16) { self.port = port }

    func start() {
      Thread { [self] in
        run(); done.signal()
      }.start()
    }

    /// Stops flooding and returns how many request bytes the server accepted.
    func stop() -> Int {
      stopFlag.withLock { $0 = true }
      done.wait()
      return sent.current
    }

    private func run() {
      let chunk = Array(String(repeating: "GET /flood HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 1024).utf8)
      while !stopFlag.current {
        guard let fd = SoakClients.connect(port: port, sendTimeout: 0.2) else {
          Thread.sleep(forTimeInterval: 0.05)
          continue
        }
        while !stopFlag.current {
          let count = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, SoakClients.sendFlags) }
          if count > 0 {
            sent.withLock { $0 += count }
          } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            continue  // The server stopped reading: keep pushing, as an attacker would.
          } else {
            break
          }
        }
        close(fd)
      }
    }
  }

  /// `count` connections that each send a partial head and then one byte every `interval`,
  /// reconnecting whenever the server closes one.
  final class Slowloris: @unchecked Sendable {
    struct Result {
      var connected = 0
      var closedByServer = 0
      var answered408 = 0
      var refused = 0
    }

    let port: UInt16
    let count: Int
    let interval: Duration
    private let stopFlag = Locked(false)
    private let result = Locked(Result())
    private let done = DispatchSemaphore(value: 0)

    init(port: UInt16, count: Int, interval: Duration) {
      self.port = port
      self.count = count
      self.interval = interval
    }

    func start() {
      Thread { [self] in
        run(); done.signal()
      }.start()
    }

    func stop() -> Result {
      stopFlag.withLock { $0 = true }
      done.wait()
      return result.current
    }

    private func open() -> Int32? {
      guard let fd = SoakClients.connect(port: port, receiveTimeout: 0.01, sendTimeout: 0.05) else {
        result.withLock { $0.refused += 1 }
        return nil
      }
      result.withLock { $0.connected += 1 }
      _ = SoakClients.sendAll(fd, Array("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
      return fd
    }

    private func run() {
      var sockets: [Int32?] = (0..<count).map { _ in open() }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let tick = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
      while !stopFlag.current {
        for index in sockets.indices {
          guard let fd = sockets[index] else {
            sockets[index] = open()
            continue
          }
          let received = buffer.withUnsafeMutableBytes {
            recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
          }
          let closed = received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
          if received > 0 || closed {
            result.withLock {
              if received > 0, String(decoding: buffer[0..<received], as: UTF8.self).hasPrefix("HTTP/1.1 408")
              {
                $0.answered408 += 1
              }
              $0.closedByServer += 1
            }
            close(fd)
            sockets[index] = open()
          } else {
            _ = SoakClients.sendAll(fd, [UInt8(ascii: "a")])
          }
        }
        var waited = 0.0
        while waited < tick && !stopFlag.current {
          Thread.sleep(forTimeInterval: 0.05)
          waited += 0.05
        }
      }
      for fd in sockets.compactMap({ $0 }) { close(fd) }
    }
  }
}

/// connect(2), which the static method of the same name hides.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
  #if canImport(Glibc)
    Glibc.connect(fd, address, length)
  #else
    Darwin.connect(fd, address, length)
  #endif
}

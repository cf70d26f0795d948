import CanaryCLI
import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal blocking HTTP/1.1 client for `canary-bench serve`: one keep-alive connection, one
/// request at a time, timing each round trip.
struct SequentialLatencyClient {
  enum Failure: Error, CustomStringConvertible {
    case connect(Int32)
    case closed(afterRequests: Int)

    var description: String {
      switch self {
      case .connect(let code): "cannot connect: errno \(code)"
      case .closed(let count): "the server closed the connection after \(count) requests"
      }
    }
  }

  let port: UInt16

  /// Sends `count` GET requests for `path` back to back and returns each latency in seconds.
  func measure(count: Int, path: String = "/") throws -> [Double] {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { _ = close(fd) }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      // A server that closes early must not kill the benchmark with SIGPIPE (Linux: MSG_NOSIGNAL).
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      let sendFlags: Int32 = 0
    #else
      let sendFlags = Int32(MSG_NOSIGNAL)
    #endif
    let connected = SocketShims.withLoopbackAddress(ipv6: false, port: port) { connect(fd, $0, $1) }
    guard connected == 0 else { throw Failure.connect(errno) }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    var buffer = [UInt8](repeating: 0, count: 16_384)
    var latencies: [Double] = []
    latencies.reserveCapacity(count)
    for index in 0..<count {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
      var pending: [UInt8] = []
      while !Self.isCompleteResponse(pending) {
        let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard received > 0 else { throw Failure.closed(afterRequests: index) }
        pending.append(contentsOf: buffer[0..<received])
      }
      latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return latencies
  }

  /// Whether `bytes` hold a whole response framed by `Content-Length`.
  static func isCompleteResponse(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 4 else { return false }
    var headEnd: Int?
    for index in 3..<bytes.count
    where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
      headEnd = index + 1
      break
    }
    guard let headEnd else { return false }
    let head = String(decoding: bytes[..<headEnd], as: UTF8.self).lowercased()
    guard let range = head.range(of: "content-length:") else { return true }
    let digits = head[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
    return bytes.count >= headEnd + (Int(digits) ?? 0)
  }
}

/// Percentiles of a list of latencies.
extension Array where Element == Double {
  func percentile(_ fraction: Double) -> Double {
    guard !isEmpty else { return .nan }
    let sorted = self.sorted()
    return sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
  }
}

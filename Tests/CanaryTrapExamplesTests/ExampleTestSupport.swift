import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A log sink that keeps lines in memory, for examples tested without a scope.
final class CollectedLines: LogSink, Sendable {
  private let lines = Locked<[String]>([])

  func write(_ line: String) {
    lines.withLock { $0.append(line) }
  }

  /// Every line written, in order.
  var all: [String] { lines.withLock { $0 } }

  /// Every line joined by newlines.
  var text: String { all.joined(separator: "\n") }
}

/// A started loopback server, stopped when the test's body ends.
func withServer<R>(
  _ body: (LoopbackServer) async throws -> R
) async throws -> R {
  let server = LoopbackServer()
  try server.start()
  defer { server.stop() }
  return try await body(server)
}

/// A unique secret-looking value for a focused test.
func secret(_ label: String) -> String {
  "cnry\(label)" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
}

/// A request with method, headers and body.
func makeRequest(
  _ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil
) -> URLRequest {
  var request = URLRequest(url: url)
  request.httpMethod = method
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  request.httpBody = body.map { Data($0.utf8) }
  return request
}

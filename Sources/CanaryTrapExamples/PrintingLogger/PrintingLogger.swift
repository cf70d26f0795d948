import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A debug transport that prints every request and response in full, as many apps do while a
/// feature is being built: URL, every header, the body as text, the status and the response.
package struct PrintingLogger: HTTPClientTransport {
  /// The session that sends the requests.
  package let session: URLSession
  /// Where the printed text goes: standard output unless a test hands in something else.
  package let output: @Sendable (String) -> Void

  /// Creates a logger that sends through `session` and prints with `output`.
  package init(
    session: URLSession = .shared, output: @escaping @Sendable (String) -> Void = { print($0) }
  ) {
    self.session = session
    self.output = output
  }

  /// Prints the request, sends it, prints the response and returns it. It sends through
  /// ``Transport/urlSession(_:mode:)``, which on Linux does not cancel a task of a session with a
  /// URL cache (the demo's has one): FoundationNetworking traps on such a cancel.
  package func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    output(Self.describe(request))
    do {
      let (data, response) = try await Transport.urlSession(session).send(request)
      output(Self.describe(response, body: data))
      return (data, response)
    } catch {
      output("❌ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "-") failed: \(error)")
      throw error
    }
  }

  /// The printed form of a request: method, URL, headers and body.
  static func describe(_ request: URLRequest) -> String {
    var lines = ["⬆️ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "-")"]
    for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
      lines.append("   \(name): \(value)")
    }
    if let body = request.httpBody, !body.isEmpty {
      lines.append("   Body: \(text(of: body))")
    }
    return lines.joined(separator: "\n")
  }

  /// The printed form of a response: status, final URL, headers and body.
  static func describe(_ response: URLResponse, body: Data) -> String {
    guard let http = response as? HTTPURLResponse else {
      return "⬇️ \(response.url?.absoluteString ?? "-") \(body.count) bytes"
    }
    var lines = ["⬇️ \(http.statusCode) \(http.url?.absoluteString ?? "-")"]
    let headers = http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }.sorted { $0.0 < $1.0 }
    for (name, value) in headers {
      lines.append("   \(name): \(value)")
    }
    if !body.isEmpty {
      lines.append("   Body: \(text(of: body))")
    }
    return lines.joined(separator: "\n")
  }

  /// A body as UTF-8 text, or its size when it is not text.
  private static func text(of body: Data) -> String {
    String(data: body, encoding: .utf8) ?? "<\(body.count) bytes>"
  }
}

import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A logging interceptor that blanks a short list of sensitive JSON keys with a regular
/// expression, then logs the request's URL and body and the response's status and path.
///
/// This is the denylist most apps start with: it hides `password` and `token`, and nothing it
/// was not told about — `access_token`, headers, query items and path segments pass through.
package struct DenylistInterceptor: RequestInterceptor {
  /// The JSON keys whose string values are blanked.
  package static let sensitiveKeys = ["password", "accessToken", "refreshToken", "token"]

  /// Where the log lines go.
  package let sink: any LogSink

  /// Creates an interceptor logging to `sink`.
  package init(sink: any LogSink) {
    self.sink = sink
  }

  /// Logs the method, the URL and the body with sensitive keys blanked.
  package func adapt(_ request: URLRequest) async throws -> URLRequest {
    sink.write("→ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")")
    if let body = request.httpBody, let text = String(data: Self.redact(body), encoding: .utf8) {
      sink.write("  body: \(text)")
    }
    return request
  }

  /// Logs the status and path, or the error.
  package func didFinish(
    _ request: URLRequest, response: HTTPURLResponse?, data: Data?, error: (any Error)?
  ) async {
    if let response {
      let symbol = (200..<300).contains(response.statusCode) ? "✓" : "✗"
      sink.write("← \(symbol) \(response.statusCode) \(request.url?.path ?? "")")
    } else if let error {
      sink.write("← ✗ \(request.url?.path ?? "") — \(error.localizedDescription)")
    }
  }

  /// Replaces the string value of every sensitive key with `***`.
  static func redact(_ data: Data) -> Data {
    guard var text = String(data: data, encoding: .utf8) else { return data }
    for key in sensitiveKeys {
      text = text.replacingOccurrences(
        of: "\"\(key)\"\\s*:\\s*\"[^\"]*\"", with: "\"\(key)\":\"***\"", options: .regularExpression)
    }
    return Data(text.utf8)
  }
}

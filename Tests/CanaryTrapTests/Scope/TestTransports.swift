import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Transports the scope tests drive: URLSession behind loggers of varying care.
enum TestTransports {
  /// A fresh ephemeral session, so no test shares cookies with another, and without a URL cache:
  /// the tests cancel its tasks (`invalidateAndCancel()`, a scope's deadline), and on Linux
  /// FoundationNetworking traps when a task is cancelled during its cache lookup.
  static func session() -> URLSession {
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.timeoutIntervalForRequest = 10
    return URLSession(configuration: configuration)
  }

  /// Logs the full request, then the response or the error (URL, headers, bodies) into `log`:
  /// leaks everything.
  static func leaky(_ base: Transport, into log: some LogSink, alsoPrint: Bool = false) -> Transport {
    Transport { request in
      var lines = ["→ \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"]
      for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        lines.append("  \(name): \(value)")
      }
      if let body = request.httpBody { lines.append("  body: \(String(decoding: body, as: UTF8.self))") }
      let data: Data
      let response: URLResponse
      do {
        (data, response) = try await base.send(request)
      } catch {
        lines.append("✗ \(error)")
        for line in lines { log.write(line) }
        if alsoPrint { print(lines.joined(separator: "\n")) }
        throw error
      }
      if let http = response as? HTTPURLResponse {
        lines.append("← \(http.statusCode) \(http.url?.absoluteString ?? "")")
        for (name, value) in http.allHeaderFields { lines.append("  \(name): \(value)") }
      }
      lines.append("  body: \(String(decoding: data, as: UTF8.self))")
      for line in lines { log.write(line) }
      if alsoPrint { print(lines.joined(separator: "\n")) }
      return (data, response)
    }
  }

  /// Logs only the method and the route (the first two path segments) and the status: safe.
  static func routeOnly(_ base: Transport, into log: some LogSink) -> Transport {
    Transport { request in
      let segments = (request.url?.path ?? "").split(separator: "/").prefix(2)
      let route = "/" + segments.joined(separator: "/")
      let (data, response) = try await base.send(request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      log.write("\(request.httpMethod ?? "GET") \(route) → \(status)")
      return (data, response)
    }
  }

  /// Removes the header `name` from every request before `base` sends it.
  static func stripping(_ name: String, _ base: Transport) -> Transport {
    Transport { request in
      var stripped = request
      stripped.setValue(nil, forHTTPHeaderField: name)
      return try await base.send(stripped)
    }
  }
}

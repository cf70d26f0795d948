import CanaryTrapServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A started server with a short idle timeout, stopped by the caller.
package func makeServer(_ configure: (inout LoopbackServer.Configuration) -> Void = { _ in }) throws
  -> LoopbackServer
{
  var configuration = LoopbackServer.Configuration()
  configuration.idleTimeout = .seconds(5)
  configure(&configuration)
  let server = LoopbackServer(configuration: configuration)
  try server.start()
  return server
}

/// A URLSession with no cache, no shared cookies and short timeouts.
package func makeSession(cookies: HTTPCookieStorage? = nil) -> URLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.timeoutIntervalForRequest = 5
  configuration.urlCache = nil
  configuration.httpCookieStorage = cookies
  configuration.httpShouldSetCookies = cookies != nil
  configuration.httpCookieAcceptPolicy = cookies == nil ? .never : .always
  return URLSession(configuration: configuration)
}

/// Sends `request` and returns the body and HTTP response.
package func send(_ request: URLRequest, session: URLSession) async throws -> (Data, HTTPURLResponse) {
  let (data, response) = try await session.data(for: request)
  return (data, try #require(response as? HTTPURLResponse))
}

/// Waits up to a second for the I/O thread to note that every recorded response was written in
/// full: a client can read a response's last byte before the thread marks its write finished.
package func waitUntilResponsesWritten(_ server: LoopbackServer) {
  waitUntil { server.responses.allSatisfy(\.fullyWritten) }
}

/// Polls `condition` every 5 ms for up to a second, for what the I/O thread does after the client
/// has its bytes (marking a write finished, telling an observer); the caller then asserts it.
package func waitUntil(_ condition: () -> Bool) {
  for _ in 0..<200 where !condition() {
    Thread.sleep(forTimeInterval: 0.005)
  }
}

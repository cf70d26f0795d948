import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Real servers and sessions for the sinks that URLSession itself writes to.
enum StoreSinkTestSupport {
  /// A started loopback server; the caller stops it.
  static func startServer() throws -> LoopbackServer {
    var configuration = LoopbackServer.Configuration()
    configuration.idleTimeout = .seconds(5)
    let server = LoopbackServer(configuration: configuration)
    try server.start()
    return server
  }

  /// A URL cache of its own, in memory and on disk under `directory`.
  static func makeCache(in directory: URL) -> URLCache {
    #if canImport(FoundationNetworking)
      URLCache(memoryCapacity: 4 << 20, diskCapacity: 20 << 20, diskPath: directory.path)
    #else
      URLCache(memoryCapacity: 4 << 20, diskCapacity: 20 << 20, directory: directory)
    #endif
  }

  /// A session that caches into `cache` and stores cookies into `cookies`, as an app's would.
  static func makeSession(cache: URLCache? = nil, cookies: HTTPCookieStorage? = nil) -> URLSession {
    let configuration = URLSessionConfiguration.default
    configuration.timeoutIntervalForRequest = 5
    configuration.urlCache = cache
    configuration.requestCachePolicy = .useProtocolCachePolicy
    configuration.httpCookieStorage = cookies
    configuration.httpShouldSetCookies = cookies != nil
    configuration.httpCookieAcceptPolicy = cookies == nil ? .never : .always
    return URLSession(configuration: configuration)
  }
}

import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Token refresh after a 401: a request with an expired access token is refused with a
/// `WWW-Authenticate` challenge, the client trades its refresh token for new tokens, and retries
/// with the new access token.
///
/// Template from `canary init token-refresh`: replace the code marked `// Replace with your API client` with
/// your app's client, and keep every planted location your request can carry.
@Suite(.canaryTrap) struct TokenRefreshLeakTests {
  /// Replace with your request kind: a request with an expired token, answered `401` with a
  /// `WWW-Authenticate` challenge; the refresh, answered with new tokens; the retry with the new
  /// access token, answered `200`. The kind sends the three requests in order, as your client's
  /// refresh flow (an interceptor, an auth actor) would.
  static let tokenRefresh = RequestKind(
    name: "api", summary: "token refresh after a 401 challenge"
  ) { p in
    let expired = p.canary(.jwt, at: .requestHeader("Authorization"))
    let challenge = p.canary(.token, at: .responseHeader("WWW-Authenticate"))
    let refreshToken = p.canary(.token, at: .requestBody(.form("refresh_token")))
    let newAccess = p.canary(.jwt, at: .responseBody(.json("access_token")))
    let newRefresh = p.canary(.token, at: .responseBody(.json("refresh_token")))

    // Replace with your server's responses.
    p.server.on(.get, p.path("orders")) { request in
      guard request.headers["Authorization"] == "Bearer \(newAccess)" else {
        return .json(#"{"error":"invalid_token"}"#, status: 401)
          .header("WWW-Authenticate", #"Bearer error="invalid_token", error_description="\#(challenge)""#)
      }
      return .json(#"{"orders":[],"count":0}"#)
    }
    p.server.on(
      .post, p.path("oauth", "token"),
      respond: .json(#"{"access_token":"\#(newAccess)","refresh_token":"\#(newRefresh)","expires_in":3600}"#))

    // Replace with your client's refresh flow: the refused request, the refresh, the retry.
    let orders = p.url(p.path("orders"))
    return [
      p.request("GET", orders, headers: [("Authorization", "Bearer \(expired)")]),
      p.request(
        "POST", p.url(p.path("oauth", "token")),
        headers: [("Content-Type", "application/x-www-form-urlencoded")],
        body: Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8)),
      p.request("GET", orders, headers: [("Authorization", "Bearer \(newAccess)")]),
    ]
  }

  @Test func refreshLogsNoExpiredRefreshOrNewToken() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    try await trap.runMatrix(through: transport, kinds: [Self.tokenRefresh])
  }  // the scope ends here: every sink is scanned; one issue per leak, undelivered canary or silent sink
}

/// Replace with your API client: this stand-in sends through `session` and logs one line per
/// exchange with the method, the route's first path segment (where the trap's tracer sits, so the
/// scope sees the log was written during the run), the status and the size, as a client with a
/// careful logger does. Delete it once the test builds your client instead.
private func standInClient(_ session: URLSession, logging log: MemoryLog) -> Transport {
  let network = Transport.urlSession(session)
  return Transport { request in
    let (data, response) = try await network.send(request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    let route = request.url?.pathComponents.dropFirst().first ?? ""
    log.write("\(request.httpMethod ?? "GET") /\(route)/… → \(status) \(data.count) bytes")
    return (data, response)
  }
}

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
  @Test func refreshLogsNoExpiredRefreshOrNewToken() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), pointed at `trap.baseURL`, logging to `log`.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.invalidateAndCancel() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    let expired = trap.canary(.jwt, at: .requestHeader("Authorization"))
    let challenge = trap.canary(.token, at: .responseHeader("WWW-Authenticate"))
    let refreshToken = trap.canary(.token, at: .requestBody(.form("refresh_token")))
    let newAccess = trap.canary(.jwt, at: .responseBody(.json("access_token")))
    let newRefresh = trap.canary(.token, at: .responseBody(.json("refresh_token")))

    // Replace with your server's responses.
    let route = "/\(trap.tracer)/api"
    trap.server.on(.get, "\(route)/orders") { request in
      guard request.headers["Authorization"] == "Bearer \(newAccess)" else {
        return .json(#"{"error":"invalid_token"}"#, status: 401)
          .header("WWW-Authenticate", #"Bearer error="invalid_token", error_description="\#(challenge)""#)
      }
      return .json(#"{"orders":[],"count":0}"#)
    }
    trap.server.on(
      .post, "\(route)/oauth/token",
      respond: .json(#"{"access_token":"\#(newAccess)","refresh_token":"\#(newRefresh)","expires_in":3600}"#))

    // Replace with your client's refresh flow (usually an interceptor or an auth actor).
    var orders = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/orders"))
    orders.setValue("Bearer \(expired)", forHTTPHeaderField: "Authorization")
    let (_, refused) = try await exchange(orders, through: transport, in: trap)
    var refresh = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/oauth/token"))
    refresh.httpMethod = "POST"
    refresh.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    refresh.httpBody = Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8)
    let (tokens, _) = try await exchange(refresh, through: transport, in: trap)
    let issued = try JSONSerialization.jsonObject(with: tokens) as? [String: Any]
    let accessToken = issued?["access_token"] as? String ?? ""
    orders.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
    let (_, response) = try await exchange(orders, through: transport, in: trap)

    #expect(refused.statusCode == 401 && response.statusCode == 200, "the exchange did not go as scripted")
  }  // the scope ends here: every sink is scanned; one issue per leak, undelivered canary or silent sink
}

/// Sends `request` through the app's transport and records the exchange, so the scope can prove
/// that every response-side canary reached the app.
private func exchange(
  _ request: URLRequest, through transport: Transport, in trap: CanaryTrap
) async throws -> (Data, HTTPURLResponse) {
  trap.observe(request: request)
  let (data, response) = try await transport.send(request)
  trap.observe(data, response)
  guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
  return (data, http)
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

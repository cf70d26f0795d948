import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A JSON API call with custom auth headers: a bearer token, an API key and a custom header nobody
/// listed as sensitive, an account number in the path, a cursor in the query, and personal data in
/// the JSON response.
///
/// Template from `canary init json-api`: replace the code marked `// Replace with your API client` with
/// your app's client, and keep every planted location your request can carry.
@Suite(.canaryTrap) struct JSONAPILeakTests {
  @Test func apiCallLogsNoHeaderPathOrResponseSecret() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), pointed at `trap.baseURL`, logging to `log`.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.invalidateAndCancel() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    let bearer = trap.canary(.jwt, at: .requestHeader("Authorization"))
    let apiKey = trap.canary(.token, at: .requestHeader("X-API-Key"))
    let deviceToken = trap.canary(.uuid, at: .requestHeader("X-Acme-Device-Token"))
    let account = trap.canary(.number, at: .requestURL(.path(2)))
    let cursor = trap.canary(.token, at: .requestURL(.query("cursor")))
    let iban = trap.canary(.number, at: .responseBody(.json("statements[0].iban")))

    // Replace with your server's response.
    let path = "/\(trap.tracer)/accounts/\(account)/statements"
    trap.server.on(
      .get, path, respond: .json(#"{"statements":[{"id":"s-1","iban":"\#(iban)"}],"count":1}"#))

    // Replace with your client's API call.
    var components = URLComponents(url: trap.baseURL, resolvingAgainstBaseURL: false)!
    components.path = path
    components.queryItems = [
      URLQueryItem(name: "limit", value: "20"), URLQueryItem(name: "cursor", value: cursor),
    ]
    var request = URLRequest(url: components.url!)
    request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
    request.setValue(apiKey, forHTTPHeaderField: "X-API-Key")
    request.setValue(deviceToken, forHTTPHeaderField: "X-Acme-Device-Token")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (_, response) = try await exchange(request, through: transport, in: trap)

    #expect(response.statusCode == 200, "the exchange did not go as scripted")
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

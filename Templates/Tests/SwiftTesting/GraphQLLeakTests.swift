import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A GraphQL POST: the operation's variables carry personal data in the JSON body, and the
/// response's `data` carries a token.
///
/// Template from `canary init graphql`: replace the code marked `// Replace with your API client` with
/// your app's client, and keep every planted location your request can carry.
@Suite(.canaryTrap) struct GraphQLLeakTests {
  @Test func graphQLLogsNoVariablesOrResponseData() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), pointed at `trap.baseURL`, logging to `log`.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.invalidateAndCancel() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    let email = trap.canary(.email, at: .requestBody(.json("variables.input.email")))
    let phone = trap.canary(.number, at: .requestBody(.json("variables.input.phone")))
    let token = trap.canary(.token, at: .responseBody(.json("data.register.token")))

    // Replace with your server's response.
    let path = "/\(trap.tracer)/graphql"
    trap.server.on(
      .post, path, respond: .json(#"{"data":{"register":{"id":"u-1","token":"\#(token)"}}}"#))

    // Replace with your client's GraphQL call.
    let operation: [String: Any] = [
      "operationName": "Register",
      "query": "mutation Register($input: RegisterInput!) { register(input: $input) { id token } }",
      "variables": ["input": ["email": email, "phone": phone]],
    ]
    var request = URLRequest(url: trap.baseURL.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: operation)
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

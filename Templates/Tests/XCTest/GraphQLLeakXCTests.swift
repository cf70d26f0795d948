import CanaryTrap
import CanaryTrapTesting
import Foundation
import XCTest

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A GraphQL POST: the operation's variables carry personal data in the JSON body, and the
/// response's `data` carries a token.
///
/// Template from `canary init graphql --xctest`: replace the code marked
/// `// Replace with your API client` with your app's client, and keep every planted location your
/// request can carry.
final class GraphQLLeakXCTests: CanaryTrapTestCase {
  /// Replace with your request kind: a GraphQL mutation whose variables carry an email and a phone
  /// number, answered with a token in the response data.
  static let register = RequestKind(
    name: "graphql", summary: "a GraphQL POST with variables and a token in the response"
  ) { p in
    let email = p.canary(.email, at: .requestBody(.json("variables.input.email")))
    let phone = p.canary(.number, at: .requestBody(.json("variables.input.phone")))
    let token = p.canary(.token, at: .responseBody(.json("data.register.token")))

    // Replace with your server's response.
    p.server.on(.post, p.route, respond: .json(#"{"data":{"register":{"id":"u-1","token":"\#(token)"}}}"#))

    // Replace with your client's GraphQL call.
    let operation: [String: Any] = [
      "operationName": "Register",
      "query": "mutation Register($input: RegisterInput!) { register(input: $input) { id token } }",
      "variables": ["input": ["email": email, "phone": phone]],
    ]
    return [
      p.request(
        "POST", p.url(p.route), headers: [("Content-Type", "application/json")],
        body: try JSONSerialization.data(withJSONObject: operation))
    ]
  }

  func testGraphQLLogsNoVariablesOrResponseData() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    try await trap.runMatrix(through: transport, kinds: [Self.register])
    await expectNoLeaks()  // ends the scope: one failure per leak, undelivered canary or silent sink
  }
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

import CanaryTrap
import CanaryTrapTesting
import Foundation
import XCTest

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A JSON API call with custom auth headers: a bearer token, an API key and a custom header nobody
/// listed as sensitive, an account number in the path, a cursor in the query, and personal data in
/// the JSON response.
///
/// Template from `canary init json-api --xctest`: replace the code marked
/// `// Replace with your API client` with your app's client, and keep every planted location your
/// request can carry.
final class JSONAPILeakXCTests: CanaryTrapTestCase {
  /// Replace with your request kind: a GET with a bearer token, an API key and a custom header, an
  /// account number in the path and a cursor in the query, answered with JSON holding an IBAN.
  static let accountStatements = RequestKind(
    name: "accounts", summary: "a JSON API call with Authorization, an API key and a custom auth header"
  ) { p in
    let bearer = p.canary(.jwt, at: .requestHeader("Authorization"))
    let apiKey = p.canary(.token, at: .requestHeader("X-API-Key"))
    let deviceToken = p.canary(.uuid, at: .requestHeader("X-Acme-Device-Token"))
    let account = p.canary(.number, at: .requestURL(.path(2)))
    let cursor = p.canary(.token, at: .requestURL(.query("cursor")))
    let iban = p.canary(.number, at: .responseBody(.json("statements[0].iban")))

    // Replace with your server's response.
    let path = p.path(account, "statements")  // /<tracer>/accounts/<account>/statements
    p.server.on(.get, path, respond: .json(#"{"statements":[{"id":"s-1","iban":"\#(iban)"}],"count":1}"#))

    // Replace with your client's API call.
    return [
      p.request(
        "GET", p.url(path, query: [("limit", "20"), ("cursor", cursor)]),
        headers: [
          ("Authorization", "Bearer \(bearer)"), ("X-API-Key", apiKey), ("X-Acme-Device-Token", deviceToken),
          ("Accept", "application/json"),
        ])
    ]
  }

  func testApiCallLogsNoHeaderPathOrResponseSecret() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    try await trap.runMatrix(through: transport, kinds: [Self.accountStatements])
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

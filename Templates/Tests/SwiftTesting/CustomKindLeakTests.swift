import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request kind of your own: `PATCH /profile` with a nested JSON body and a bearer token, which
/// the server rejects with `422 Unprocessable Entity`, a JSON error body and a correlation header,
/// all carrying canaries. The rejection is a normal answer: the app's error path must log it
/// without the secrets in it.
///
/// Template from `canary init custom-kind`: replace the code marked
/// `// Replace with your API client` with your app's client, and the kind with your own request
/// (see the article "Writing your own request kind").
@Suite(.canaryTrap) struct CustomKindLeakTests {
  /// Replace with your request kind: mint a canary for every place your request and its answer
  /// carry data, script the server's answer, and return the requests to send, in order.
  static let profileUpdate = RequestKind(
    name: "profile", summary: "PATCH /profile with a nested JSON body, rejected with 422 and a JSON error"
  ) { p in
    // Request side: each is proven when the server received it where it was planted.
    let token = p.canary(.token, at: .requestHeader("Authorization"))
    let email = p.canary(.email, at: .requestBody(.json("profile.contact.email")))
    let phone = p.canary(.number, at: .requestBody(.json("profile.contact.phone")))
    // Response side: each is proven when the transport handed it back to the app.
    let correlation = p.canary(.uuid, at: .responseHeader("X-Correlation-ID"))
    let traceID = p.canary(.token, at: .responseBody(.json("error.trace_id")))
    let rejected = p.canary(.email, at: .responseBody(.json("error.field.rejected")))

    // The server's answer: status, headers and body, as your API answers a rejected update.
    let error =
      #"{"error":{"code":"validation_failed","trace_id":"\#(traceID)","field":{"name":"email","rejected":"\#(rejected)"}}}"#
    p.server.on(.patch, p.route, respond: .json(error, status: 422).header("X-Correlation-ID", correlation))

    let body = #"{"profile":{"name":"Ada","contact":{"email":"\#(email)","phone":"\#(phone)"}}}"#
    return [
      p.request(
        "PATCH", p.url(p.route),
        headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
        body: Data(body.utf8))
    ]
  }

  @Test func rejectedProfileUpdateLogsNoSecret() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    let result = try await trap.runMatrix(through: transport, kinds: [Self.profileUpdate])

    // Ends the scope now (one issue per leak, undelivered canary or silent sink) to print the
    // per-location table: one line per planted location, its delivery and the sinks it leaked into.
    if let report = await expectNoLeaks(in: trap) { print(result.attaching(report).coverageTable) }
  }
}

/// Replace with your API client: this stand-in sends through `session` and logs one line per
/// exchange with the method, the route's first path segment (where the trap's tracer sits, so the
/// scope sees the log was written during the run), the status and the size, as a client with a
/// careful logger does, on success and on failure alike. Delete it once the test builds your client.
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

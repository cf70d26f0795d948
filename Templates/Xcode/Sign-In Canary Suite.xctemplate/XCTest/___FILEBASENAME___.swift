import CanaryTrap
import CanaryTrapTesting
import Foundation
import XCTest

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sign-in with tokens and cookies: the credentials go up in a JSON body, an access token, a
/// refresh token and a user ID come back in the JSON response, a session cookie comes back in
/// `Set-Cookie` and is sent on the next request.
///
/// Template from `canary init sign-in --xctest`: replace the code marked
/// `// Replace with your API client` with your app's client, and keep every planted location your
/// request can carry.
final class ___FILEBASENAMEASIDENTIFIER___: CanaryTrapTestCase {
  func testSignInLogsNoCredentialTokenOrCookie() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), pointed at `trap.baseURL`, logging to `log`.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.invalidateAndCancel() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    let email = trap.canary(.email, at: .requestBody(.json("email")))
    let password = trap.canary(.password, at: .requestBody(.json("password")))
    let accessToken = trap.canary(.jwt, at: .responseBody(.json("access_token")))
    let refreshToken = trap.canary(.token, at: .responseBody(.json("refresh_token")))
    let userID = trap.canary(.uuid, at: .responseBody(.json("user.id")))
    let session = trap.canary(.token, at: .responseCookie("session"))

    // Replace with your server's responses: keep every canary where your API puts real data.
    let route = "/\(trap.tracer)/auth"
    trap.server.on(
      .post, "\(route)/signin",
      respond: .json(
        #"{"access_token":"\#(accessToken)","refresh_token":"\#(refreshToken)","token_type":"Bearer","user":{"id":"\#(userID)"}}"#
      ).header("Set-Cookie", "session=\(session); Path=/; HttpOnly"))
    trap.server.on(.get, "\(route)/me", respond: .json(#"{"signed_in":true}"#))

    // Replace with your client's sign-in call.
    var signIn = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/signin"))
    signIn.httpMethod = "POST"
    signIn.setValue("application/json", forHTTPHeaderField: "Content-Type")
    signIn.httpBody = Data(#"{"email":"\#(email)","password":"\#(password)"}"#.utf8)
    let (_, signInResponse) = try await exchange(signIn, through: transport, in: trap)
    let (_, meResponse) = try await exchange(
      URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/me")), through: transport, in: trap)

    XCTAssertTrue(
      signInResponse.statusCode == 200 && meResponse.statusCode == 200, "the exchange did not go as scripted")
    await expectNoLeaks()  // ends the scope: one failure per leak, undelivered canary or silent sink
  }
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

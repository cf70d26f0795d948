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
final class SignInLeakXCTests: CanaryTrapTestCase {
  /// Replace with your request kind: the sign-in (credentials up in a JSON body; tokens, a user ID
  /// and a session cookie back), then a request the session cookie goes back with from the
  /// session's cookie store. It sets cookies, so it sends to `p.cookieURL`, on a host of its own.
  static let signIn = RequestKind(
    name: "auth", summary: "sign-in with tokens in the body and a session cookie", setsCookies: true
  ) { p in
    let email = p.canary(.email, at: .requestBody(.json("email")))
    let password = p.canary(.password, at: .requestBody(.json("password")))
    let accessToken = p.canary(.jwt, at: .responseBody(.json("access_token")))
    let refreshToken = p.canary(.token, at: .responseBody(.json("refresh_token")))
    let userID = p.canary(.uuid, at: .responseBody(.json("user.id")))
    let session = p.canary(.token, at: .responseCookie("session"))

    // Replace with your server's responses: keep every canary where your API puts real data.
    p.server.on(
      .post, p.path("signin"),
      respond: .json(
        #"{"access_token":"\#(accessToken)","refresh_token":"\#(refreshToken)","token_type":"Bearer","user":{"id":"\#(userID)"}}"#
      ).header("Set-Cookie", "session=\(session); Path=/; HttpOnly"))
    p.server.on(.get, p.path("me"), respond: .json(#"{"signed_in":true}"#))

    // Replace with your client's sign-in call and the request after it.
    let credentials = #"{"email":"\#(email)","password":"\#(password)"}"#
    return [
      p.request(
        "POST", p.cookieURL(p.path("signin")), headers: [("Content-Type", "application/json")],
        body: Data(credentials.utf8)),
      p.request("GET", p.cookieURL(p.path("me"))),
    ]
  }

  func testSignInLogsNoCredentialTokenOrCookie() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    try await trap.runMatrix(through: transport, kinds: [Self.signIn])
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

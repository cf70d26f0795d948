import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Delivery proof of the location families added for credentials, unfollowed `Location`s, held
/// secrets and re-sent cookies: each is delivered only at its own place, and altered, missing or
/// moved values are undelivered.
@Suite("Delivery proof of credential, Location, held-secret and re-sent cookie locations")
struct NewLocationProofTests {
  private let value = "cnryNEWproofvalue0123456789"

  private func status(
    _ location: CanaryLocation, proof: DeliveryProof = .atLocation, value: String? = nil,
    received: [RecordedRequest] = [], sent: [SentRequest] = [], returned: [ObservedResponse] = []
  ) -> CanaryDelivery.Status {
    let canary = Canary(value: value ?? self.value, location: location)
    return proof.check(canary, DeliveryEvidence(received: received, sent: sent, returned: returned))
  }

  private func request(_ target: String = "/t/k/x", headers: HTTPHeaders = [:]) -> RecordedRequest {
    RecordedRequest(method: "GET", target: target, headers: headers)
  }

  private func basic(_ user: String, _ password: String) -> String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
  }

  private func response(_ headers: [String: String], status: Int = 200) throws -> ObservedResponse {
    let url = try #require(URL(string: "http://127.0.0.1:1/t/k/items"))
    let http = try #require(
      HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
    return ObservedResponse(data: Data(), response: http)
  }

  @Test("Basic credentials: the user and the password are each proven at their own part and header")
  func credentialParts() {
    let user = CanaryLocation.requestCredential(header: "Authorization", .user)
    let password = CanaryLocation.requestCredential(header: "Authorization", .password)
    let sent = request(headers: ["Authorization": basic(value, "other")])
    #expect(status(user, received: [sent]) == .delivered)
    // Moved: the same value as the password, or in Proxy-Authorization, is not the user.
    #expect(status(password, received: [sent]) != .delivered)
    #expect(
      status(.requestCredential(header: "Proxy-Authorization", .user), received: [sent])
        == .undelivered(
          reason:
            "the server never received it in the Basic user of header Proxy-Authorization (the transport dropped header Proxy-Authorization)"
        ))
    // Altered and missing.
    let altered = request(headers: ["Authorization": basic(value + "x", "other")])
    #expect(
      status(user, received: [altered])
        == .undelivered(
          reason:
            "the server never received it in the Basic user of header Authorization (header Authorization arrived, but not with it as its Basic user)"
        ))
    #expect(status(user, received: [request()]) != .delivered)
    #expect(status(user) == .undelivered(reason: "the server received no request at all"))
    // Proxy-Authorization is read the same way, the password after the first colon.
    let proxy = request(headers: ["Proxy-Authorization": basic("u", "a:\(value)")])
    #expect(
      status(
        .requestCredential(header: "Proxy-Authorization", .password), value: "a:\(value)", received: [proxy])
        == .delivered)
  }

  @Test("an unfollowed Location: delivered when returned there, not when altered, missing or moved")
  func responseLocation() throws {
    let location = "http://127.0.0.1:1/t/k/items/\(value)?token=\(value)"
    let returned = try response(["Location": location], status: 201)
    #expect(status(.responseLocation(.path(3)), returned: [returned]) == .delivered)
    #expect(status(.responseLocation(.query("token")), returned: [returned]) == .delivered)
    #expect(status(.responseLocation(.path(2)), returned: [returned]) != .delivered)
    #expect(status(.responseLocation(.query("sig")), returned: [returned]) != .delivered)
    let altered = try response(["Location": location.replacingOccurrences(of: value, with: value + "x")])
    #expect(status(.responseLocation(.path(3)), returned: [altered]) != .delivered)
    let elsewhere = try response(["X-Next": location])
    #expect(
      status(.responseLocation(.query("token")), returned: [elsewhere])
        == .undelivered(reason: "the transport never returned it in the Location's query item token"))
    #expect(
      status(.responseLocation(.path(3)))
        == .undelivered(reason: "the server received no request, so no response carried it"))
    // A relative Location resolves against the response URL.
    let relative = try response(["Location": "/t/k/items/\(value)"])
    #expect(status(.responseLocation(.path(3)), returned: [relative]) == .delivered)
  }

  @Test("a redirect's Location counts when the transport hands the 3xx to the app unfollowed")
  func unfollowedRedirect() throws {
    let returned = try response(["Location": "http://127.0.0.1:1/t/k/landing?sig302=\(value)"], status: 302)
    #expect(status(.redirect(hop: 1, .query("sig302")), returned: [returned]) == .delivered)
    #expect(status(.redirect(hop: 1, .query("sig301")), returned: [returned]) != .delivered)
    let neither = status(.redirect(hop: 1, .query("sig302")), received: [request()])
    #expect(
      neither
        == .undelivered(
          reason:
            "the server never received it in query item sig302 of the request following redirect 1 (the transport neither followed redirect 1 nor returned its Location to the app, or changed it)"
        ))
  }

  @Test("a held secret is proven by its absence from a wire that carried requests")
  func heldSecret() {
    let held = CanaryLocation.clientHeld("keychain-token")
    #expect(status(held, received: [request()]) == .delivered)
    #expect(
      status(held)
        == .undelivered(reason: "the server received no request, so its absence from the wire proves nothing")
    )
    // Present on the wire, raw or encoded: the proof fails and says so.
    let raw = RecordedRequest(
      method: "GET", target: "/t/k/x", headers: ["X-Key": value],
      raw: Data("GET /t/k/x HTTP/1.1\r\nX-Key: \(value)\r\n\r\n".utf8))
    guard case .undelivered(let reason) = status(held, received: [request(), raw]) else {
      Issue.record("a held secret on the wire was taken as proven")
      return
    }
    #expect(reason.contains("the client sent it to the server (GET /t/k/x)"))
    let encoded = request(headers: ["Authorization": basic("u", value)])
    #expect(status(held, received: [encoded]) != .delivered)
  }

  @Test("a re-sent cookie is proven only by a Cookie header the app did not write")
  func resentCookie() throws {
    let cookie = CanaryLocation.responseCookie("session_id")
    let proof = DeliveryProof.resentByCookieStore
    let setCookie = try response(["Set-Cookie": "session_id=\(value); Path=/t/sign-in"])
    let resent = request(headers: ["Cookie": "other=1; session_id=\(value)"])
    #expect(status(cookie, proof: proof, received: [request(), resent], returned: [setCookie]) == .delivered)
    // Set-Cookie reached the app, but no request brought it back: no cookie store.
    #expect(
      status(cookie, proof: proof, received: [request()], returned: [setCookie])
        == .undelivered(
          reason:
            "the app received it in Set-Cookie session_id, but no later request sent it back in request.cookie[session_id] (the transport keeps no cookies: no cookie storage, or httpShouldSetCookies off)"
        ))
    // Altered, or moved to another cookie name.
    let altered = request(headers: ["Cookie": "session_id=\(value)x"])
    #expect(status(cookie, proof: proof, received: [altered], returned: [setCookie]) != .delivered)
    let moved = request(headers: ["Cookie": "sid=\(value)"])
    #expect(status(cookie, proof: proof, received: [moved], returned: [setCookie]) != .delivered)
    // The app wrote the Cookie header itself: the store's re-send is unproven.
    var written = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/t/sign-in/me")))
    written.setValue("session_id=\(value)", forHTTPHeaderField: "Cookie")
    #expect(
      status(cookie, proof: proof, received: [resent], sent: [SentRequest(written)], returned: [setCookie])
        != .delivered)
    #expect(status(.requestCookie("session_id"), proof: proof, received: [resent]) != .delivered)
  }
}

import Testing

@testable import CanaryTrap

@Suite struct CanaryLocationTests {
  static let typed: [(CanaryLocation, String)] = [
    (.requestURL(.user), "request.url.user"),
    (.requestURL(.password), "request.url.password"),
    (.requestURL(.path(2)), "request.url.path[2]"),
    (.requestURL(.pathParameter("session")), "request.url.pathParam[session]"),
    (.requestURL(.query("access_token")), "request.url.query[access_token]"),
    (.requestURL(.fragment), "request.url.fragment"),
    (.requestHeader("X-Session"), "request.header[X-Session]"),
    (.requestCookie("sid"), "request.cookie[sid]"),
    (.requestBody(.json("user.tokens[0]")), "request.body.json[user.tokens[0\\]]"),
    (.requestBody(.form("password")), "request.body.form[password]"),
    (.requestBody(.multipartField("note")), "request.body.multipart[note]"),
    (.requestBody(.multipartFile("avatar")), "request.body.multipart[avatar].file"),
    (.requestBody(.multipartFilename("avatar")), "request.body.multipart[avatar].filename"),
    (.requestBody(.text), "request.body.text"),
    (.requestBody(.xml("login/password")), "request.body.xml[login/password]"),
    (.responseHeader("WWW-Authenticate"), "response.header[WWW-Authenticate]"),
    (.responseCookie("session"), "response.cookie[session]"),
    (.responseBody(.json("access_token")), "response.body.json[access_token]"),
    (.redirect(hop: 2, .query("sig")), "redirect[2].location.query[sig]"),
    (.redirect(hop: 1, .path(0)), "redirect[1].location.path[0]"),
    (.finalURL(.query("token")), "final.url.query[token]"),
    (.requestCredential(header: "Authorization", .user), "request.header[Authorization].basic.user"),
    (
      .requestCredential(header: "Proxy-Authorization", .password),
      "request.header[Proxy-Authorization].basic.password"
    ),
    (.responseLocation(.query("token")), "response.location.query[token]"),
    (.responseLocation(.path(3)), "response.location.path[3]"),
    (.clientHeld("keychain[api-key]"), "client.held[keychain[api-key\\]]"),
  ]

  @Test(arguments: typed.indices)
  func typedLocationsHaveStableStringForms(index: Int) {
    let (location, text) = Self.typed[index]
    #expect(location.description == text)
    #expect(CanaryLocation(text) == location)
  }

  @Test("new location families are their own, and a response cookie is re-sent as a request cookie")
  func newFamilies() {
    #expect(
      CanaryLocation.requestCredential(header: "Authorization", .user).family == "request.header.basic.user")
    #expect(
      CanaryLocation.requestCredential(header: "Authorization", .password).family
        == "request.header.basic.password")
    #expect(CanaryLocation.responseLocation(.query("t")).family == "response.location.query")
    #expect(CanaryLocation.clientHeld("k").family == "client.held")
    #expect(CanaryLocation.responseCookie("session_id").resentAs == .requestCookie("session_id"))
    #expect(CanaryLocation.requestCookie("sid").resentAs == nil)
    #expect(CanaryLocation.requestCredential(header: "Authorization", .user).isRequestSide)
    #expect(!CanaryLocation.clientHeld("k").isRequestSide)
    // A header with an unknown credential part stays custom, verbatim.
    #expect(
      CanaryLocation("request.header[Authorization].basic.token")
        == .custom("request.header[Authorization].basic.token"))
  }

  @Test func namesWithBracketsAndBackslashesRoundTrip() {
    let location = CanaryLocation.requestHeader(#"odd]name\with"#)
    #expect(CanaryLocation(location.description) == location)
  }

  @Test(arguments: [
    "logs.line[3]", "request.header[unterminated", "request.url.path[-1]", "redirect[x].location.user",
    "request.body.json[a]trailing", "", "request.url.path[1",
  ])
  func unknownStringsAreKeptVerbatimAsCustom(text: String) {
    let location = CanaryLocation(text)
    #expect(location == .custom(text))
    #expect(location.description == text)
  }

  @Test func requestSideIsTheSideTheServerProves() {
    #expect(CanaryLocation.requestHeader("X").isRequestSide)
    #expect(CanaryLocation.requestURL(.user).isRequestSide)
    #expect(!CanaryLocation.responseCookie("sid").isRequestSide)
    #expect(!CanaryLocation.redirect(hop: 1, .query("q")).isRequestSide)
    #expect(!CanaryLocation.custom("anything").isRequestSide)
  }
}

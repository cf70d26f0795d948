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
  ]

  @Test(arguments: typed.indices)
  func typedLocationsHaveStableStringForms(index: Int) {
    let (location, text) = Self.typed[index]
    #expect(location.description == text)
    #expect(CanaryLocation(text) == location)
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

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// One redirect of `status` whose absolute `Location` carries canaries in a path parameter and
  /// a query item named after the status (`redirect[1].location.pathParam[ref307]`,
  /// `….query[sig307]`), so that each code's canaries have locations of their own.
  ///
  /// A transport that follows it delivers them in the next request; one with redirects off hands
  /// the 3xx to the app, which delivers them in the returned `Location`.
  public static func redirect(_ status: Int) -> RequestKind {
    RequestKind(
      name: "redirect-\(status)", summary: "a \(status) redirect with canaries in the Location path and query"
    ) { p in
      let reference = p.canary(.token, at: .redirect(hop: 1, .pathParameter("ref\(status)")))
      let sig = p.canary(.token, at: .redirect(hop: 1, .query("sig\(status)")))
      let landing = p.route + "/landing;ref\(status)=\(reference)"
      p.server.on(
        .get, p.path("start"),
        respond: .redirect(status, to: p.url(landing, query: [("sig\(status)", sig)]).absoluteString))
      p.server.on(.any, landing, respond: .text("landed\n"))
      return [p.request("GET", p.url(p.path("start")))]
    }
  }

  /// Redirects of every code: 301, 302, 303, 307 and 308.
  package static let redirects: [RequestKind] = [301, 302, 303, 307, 308].map(redirect)

  /// A three-hop chain (302, 307, 301) with canaries in each `Location` and in the final URL.
  package static let redirectChain = RequestKind(
    name: "redirect-chain", summary: "a three-hop redirect chain ending on a URL with canaries"
  ) { p in
    let first = p.canary(.uuid, at: .redirect(hop: 1, .query("sig")))
    let firstPath = p.canary(.token, at: .redirect(hop: 1, .path(KindPlanter.firstDataSegment)))
    let second = p.canary(.token, at: .redirect(hop: 2, .path(KindPlanter.firstDataSegment)))
    let finalPath = p.canary(.token, at: .finalURL(.path(KindPlanter.firstDataSegment + 1)))
    let finalQuery = p.canary(.jwt, at: .finalURL(.query("code")))
    let hop1 = p.url(p.path(firstPath, "hop1"), query: [("sig", first)])
    let hop2 = p.url(p.path(second, "hop2"))
    let final = p.url(p.path("final", finalPath), query: [("code", finalQuery)])
    p.server.on(.get, p.path("start"), respond: .redirect(302, to: hop1.absoluteString))
    p.server.on(.get, p.path(firstPath, "hop1"), respond: .redirect(307, to: hop2.absoluteString))
    p.server.on(.get, p.path(second, "hop2"), respond: .redirect(301, to: final.absoluteString))
    p.server.on(.get, p.path("final", finalPath), respond: .text("arrived\n"))
    return [p.request("GET", p.url(p.path("start")))]
  }
}

extension RequestKind {
  /// A `201 Created` whose `Location` (not a redirect: no transport follows it) carries canaries in
  /// its path and query, returned to the app as `response.location.path[3]` and `….query[token]`.
  package static let createdLocation = RequestKind(
    name: "created-location", summary: "201 Created whose Location, never followed, carries canaries"
  ) { p in
    let id = p.canary(.uuid, at: .responseLocation(.path(KindPlanter.firstDataSegment + 1)))
    let token = p.canary(.token, at: .responseLocation(.query("token")))
    let created = p.url(p.path("items", id), query: [("token", token)])
    p.server.on(
      .post, p.path("items"),
      respond: .json(#"{"created":true}"#, status: 201).header("Location", created.absoluteString))
    return [
      p.request(
        "POST", p.url(p.path("items")), headers: [("Content-Type", "application/json")],
        body: Data(#"{"name":"item"}"#.utf8))
    ]
  }
}

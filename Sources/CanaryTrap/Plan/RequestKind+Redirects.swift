import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// One redirect of `status` whose absolute `Location` carries canaries in its path and query.
  public static func redirect(_ status: Int) -> RequestKind {
    RequestKind(
      name: "redirect-\(status)", summary: "a \(status) redirect with canaries in the Location path and query"
    ) { p in
      let pathCanary = p.canary(.token, at: .redirect(hop: 1, .path(KindPlanter.firstDataSegment)))
      let sig = p.canary(.token, at: .redirect(hop: 1, .query("sig")))
      let landing = p.path(pathCanary, "landing")
      p.server.on(
        .get, p.path("start"),
        respond: .redirect(status, to: p.url(landing, query: [("sig", sig)]).absoluteString))
      p.server.on(.any, landing, respond: .text("landed\n"))
      return [p.request("GET", p.url(p.path("start")))]
    }
  }

  /// Redirects of every code: 301, 302, 303, 307 and 308.
  public static let redirects: [RequestKind] = [301, 302, 303, 307, 308].map(redirect)

  /// A three-hop chain (302, 307, 301) with canaries in each `Location` and in the final URL.
  public static let redirectChain = RequestKind(
    name: "redirect-chain", summary: "a three-hop redirect chain ending on a URL with canaries"
  ) { p in
    let first = p.canary(.uuid, at: .redirect(hop: 1, .query("sig")))
    let second = p.canary(.token, at: .redirect(hop: 2, .path(KindPlanter.firstDataSegment)))
    let finalPath = p.canary(.token, at: .finalURL(.path(KindPlanter.firstDataSegment + 1)))
    let finalQuery = p.canary(.jwt, at: .finalURL(.query("code")))
    let hop1 = p.url(p.path("hop1"), query: [("sig", first)])
    let hop2 = p.url(p.path(second, "hop2"))
    let final = p.url(p.path("final", finalPath), query: [("code", finalQuery)])
    p.server.on(.get, p.path("start"), respond: .redirect(302, to: hop1.absoluteString))
    p.server.on(.get, p.path("hop1"), respond: .redirect(307, to: hop2.absoluteString))
    p.server.on(.get, p.path(second, "hop2"), respond: .redirect(301, to: final.absoluteString))
    p.server.on(.get, p.path("final", finalPath), respond: .text("arrived\n"))
    return [p.request("GET", p.url(p.path("start")))]
  }
}

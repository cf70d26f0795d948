import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// Basic auth through the URL's userinfo, which the transport turns into `Authorization: Basic`,
  /// challenging a request without credentials where the platform's URLSession needs it
  /// (``userinfoNeedsChallenge``).
  package static let basicAuthUserinfo = basicAuthUserinfo(challenging: userinfoNeedsChallenge)

  /// Whether this platform's URLSession sends `user:password@` credentials only after a `401`
  /// challenge: true on Apple platforms; false with FoundationNetworking, which sends them at once
  /// and, given a `Basic` challenge it holds no credential for, waits forever.
  package static var userinfoNeedsChallenge: Bool {
    #if canImport(FoundationNetworking)
      false
    #else
      true
    #endif
  }

  /// Basic auth through `user:password@` in the URL. The server accepts any request carrying
  /// `Authorization` (the delivery proof judges the credentials); it answers one without it with
  /// `401`, plus `WWW-Authenticate: Basic` when `challenging`, so a transport that sends userinfo
  /// only when challenged retries with it. Delivery is proven by what arrived either way.
  public static func basicAuthUserinfo(challenging: Bool) -> RequestKind {
    RequestKind(name: "basic-auth-userinfo", summary: "basic auth through user:password@ in the URL") { p in
      let user = p.canary(.token, at: .requestURL(.user))
      let password = p.canary(.password, at: .requestURL(.password))
      p.server.on(.get, p.path("account")) { request in
        if !request.headers.values(for: "Authorization").isEmpty { return .json(#"{"account":"ok"}"#) }
        let refusal = ServerResponse.json(#"{"error":"credentials required"}"#, status: 401)
        return challenging ? refusal.header("WWW-Authenticate", #"Basic realm="canary""#) : refusal
      }
      var components = URLComponents(url: p.url(p.path("account")), resolvingAgainstBaseURL: false)!
      components.user = user
      components.password = password
      return [p.request("GET", components.url!)]
    }
  }

  /// Basic auth through an `Authorization: Basic` header written by the app: the user and the
  /// password are two locations, `request.header[Authorization].basic.user` and `….password`.
  package static let basicAuthHeader = RequestKind(
    name: "basic-auth-header", summary: "basic auth through an Authorization: Basic header"
  ) { p in
    let user = p.canary(.email, at: .requestCredential(header: "Authorization", .user))
    let password = p.canary(.password, at: .requestCredential(header: "Authorization", .password))
    let encoded = Data("\(user):\(password)".utf8).base64EncodedString()
    return [p.request("GET", p.url(p.path("account")), headers: [("Authorization", "Basic \(encoded)")])]
  }

  /// Credentials for a proxy in a `Proxy-Authorization: Basic` header, user and password each at
  /// its own location.
  package static let proxyAuthorization = RequestKind(
    name: "proxy-authorization", summary: "proxy credentials in a Proxy-Authorization: Basic header"
  ) { p in
    let user = p.canary(.email, at: .requestCredential(header: "Proxy-Authorization", .user))
    let password = p.canary(.password, at: .requestCredential(header: "Proxy-Authorization", .password))
    let encoded = Data("\(user):\(password)".utf8).base64EncodedString()
    return [
      p.request("GET", p.url(p.path("resource")), headers: [("Proxy-Authorization", "Basic \(encoded)")])
    ]
  }

  /// A bearer token, a well-known API key header and a custom header nobody listed, in varied case.
  package static let authHeaders = RequestKind(
    name: "auth-headers", summary: "Authorization: Bearer, X-API-Key and an unlisted header, varied case"
  ) { p in
    let bearer = p.canary(.jwt, at: .requestHeader("authorization"))
    let apiKey = p.canary(.token, at: .requestHeader("X-API-KEY"))
    let custom = p.canary(.uuid, at: .requestHeader("x-Acme-Session-Ref"))
    return [
      p.request(
        "GET", p.url(p.path("profile")),
        headers: [
          ("authorization", "Bearer \(bearer)"), ("X-API-KEY", apiKey), ("x-Acme-Session-Ref", custom),
        ])
    ]
  }
}

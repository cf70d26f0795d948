import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// Basic auth through the URL's userinfo, which the transport turns into `Authorization: Basic`.
  public static let basicAuthUserinfo = RequestKind(
    name: "basic-auth-userinfo", summary: "basic auth through user:password@ in the URL"
  ) { p in
    let user = p.canary(.token, at: .requestURL(.user))
    let password = p.canary(.password, at: .requestURL(.password))
    var components = URLComponents(url: p.url(p.path("account")), resolvingAgainstBaseURL: false)!
    components.user = user
    components.password = password
    return [p.request("GET", components.url!)]
  }

  /// Basic auth through an `Authorization: Basic` header written by the app.
  public static let basicAuthHeader = RequestKind(
    name: "basic-auth-header", summary: "basic auth through an Authorization: Basic header"
  ) { p in
    let basic = DeliveryProof { canary, evidence in
      let found = evidence.received.contains { request in
        let credentials = RequestInspection(request: request).basicCredentials
        return credentials?.user == canary.value || credentials?.password == canary.value
      }
      return found
        ? .delivered
        : .undelivered(
          reason:
            "the server never received it in header Authorization (the transport dropped header Authorization)"
        )
    }
    let user = p.canary(.email, at: .requestHeader("Authorization"), proof: basic)
    let password = p.canary(.password, at: .requestHeader("Authorization"), proof: basic)
    let encoded = Data("\(user):\(password)".utf8).base64EncodedString()
    return [p.request("GET", p.url(p.path("account")), headers: [("Authorization", "Basic \(encoded)")])]
  }

  /// A bearer token, a well-known API key header and a custom header nobody listed, in varied case.
  public static let authHeaders = RequestKind(
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

  /// Cookies the app sends in its `Cookie` header.
  public static let requestCookies = RequestKind(
    name: "request-cookies", summary: "a Cookie header with two cookies"
  ) {
    p in
    let sid = p.canary(.token, at: .requestCookie("sid"))
    let device = p.canary(.uuid, at: .requestCookie("device_id"))
    return [p.request("GET", p.url(p.path("cart")), headers: [("Cookie", "sid=\(sid); device_id=\(device)")])]
  }

  /// A sign-in returning JSON tokens and `Set-Cookie`, then a follow-up request sending the cookie back.
  public static let signIn = RequestKind(
    name: "sign-in",
    summary: "sign-in returning JSON tokens and Set-Cookie, then a follow-up with the cookie",
    setsCookies: true
  ) { p in
    let email = p.canary(.email, at: .requestBody(.json("email")))
    let password = p.canary(.password, at: .requestBody(.json("password")))
    let access = p.canary(.jwt, at: .responseBody(.json("access_token")))
    let refresh = p.canary(.token, at: .responseBody(.json("refresh_token")))
    let userID = p.canary(.uuid, at: .responseBody(.json("user.id")))
    let session = p.canary(.token, at: .responseCookie("session_id"))
    let tokens = String(
      decoding: try jsonData(["access_token": access, "refresh_token": refresh, "user": ["id": userID]]),
      as: UTF8.self)
    // The cookie's Domain names no real host, so no cookie store keeps it: FoundationNetworking
    // would otherwise send it instead of the Cookie header of every later request to 127.0.0.1,
    // whatever its port or path, and other kinds' cookies would never arrive.
    p.server.on(
      .post, p.path("login"),
      respond: .json(tokens).header(
        "Set-Cookie", "session_id=\(session); Path=\(p.route); Domain=example.invalid; HttpOnly"))
    p.server.on(.get, p.path("me"), respond: .json(#"{"signed_in":true}"#))
    let login = p.request(
      "POST", p.url(p.path("login")), headers: [("Content-Type", "application/json")],
      body: try jsonData(["email": email, "password": password]))
    let followUp = p.request("GET", p.url(p.path("me")), headers: [("Cookie", "session_id=\(session)")])
    return [login, followUp]
  }
}

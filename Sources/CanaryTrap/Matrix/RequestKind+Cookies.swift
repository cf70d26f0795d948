import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// Cookies the app sends in its `Cookie` header.
  package static let requestCookies = RequestKind(
    name: "request-cookies", summary: "a Cookie header with two cookies"
  ) {
    p in
    let sid = p.canary(.token, at: .requestCookie("sid"))
    let device = p.canary(.uuid, at: .requestCookie("device_id"))
    return [p.request("GET", p.url(p.path("cart")), headers: [("Cookie", "sid=\(sid); device_id=\(device)")])]
  }

  /// A sign-in returning JSON tokens and a session cookie, a follow-up the app's cookie store
  /// sends the cookie back with, and a sign-out that deletes it.
  ///
  /// The cookie is host-only and scoped to the kind's route (`Path=/<tracer>/sign-in`), on the host
  /// ``KindPlanter/cookieHost`` (`localhost` for a server on 127.0.0.1). FoundationNetworking sends
  /// every stored cookie of a host whatever its path, in place of the app's own `Cookie` header, so
  /// a cookie for 127.0.0.1 would reach every other kind's requests (and those of scopes running in
  /// parallel on the same session); one for `localhost` reaches only sign-in requests, and the
  /// sign-out replaces it in the store with a placeholder that expires a minute later. Its delivery is proven by the re-send
  /// (``DeliveryProof/resentByCookieStore``): a finding is named `response.cookie[session_id]`,
  /// re-sent as `request.cookie[session_id]`.
  public static let signIn = RequestKind(
    name: "sign-in",
    summary: "sign-in returning JSON tokens and a session cookie the cookie store re-sends, then sign-out",
    setsCookies: true
  ) { p in
    let email = p.canary(.email, at: .requestBody(.json("email")))
    let password = p.canary(.password, at: .requestBody(.json("password")))
    let access = p.canary(.jwt, at: .responseBody(.json("access_token")))
    let refresh = p.canary(.token, at: .responseBody(.json("refresh_token")))
    let userID = p.canary(.uuid, at: .responseBody(.json("user.id")))
    let session = p.canary(.token, at: .responseCookie("session_id"), proof: .resentByCookieStore)
    let tokens = String(
      decoding: try jsonData(["access_token": access, "refresh_token": refresh, "user": ["id": userID]]),
      as: UTF8.self)
    p.server.on(
      .post, p.path("login"),
      respond: .json(tokens).header("Set-Cookie", "session_id=\(session); Path=\(p.route); HttpOnly"))
    p.server.on(.get, p.path("me"), respond: .json(#"{"signed_in":true}"#))
    // The sign-out replaces the session with a placeholder that holds no canary and expires a
    // minute later: a cookie-store sink still finds the route (and the tracer) in its Path, so it
    // heard the run. Expires alone: FoundationNetworking ignores Max-Age on a version-0 cookie,
    // and a Max-Age would make it ignore Expires too.
    p.server.on(.post, p.path("logout")) { _ in
      .json(#"{"signed_out":true}"#).header(
        "Set-Cookie",
        "session_id=signed-out; Path=\(p.route); Expires=\(httpDate(Date().addingTimeInterval(60)))")
    }
    let login = p.request(
      "POST", p.cookieURL(p.path("login")), headers: [("Content-Type", "application/json")],
      body: try jsonData(["email": email, "password": password]))
    let followUp = p.request("GET", p.cookieURL(p.path("me")))
    let signOut = p.request("POST", p.cookieURL(p.path("logout")), body: Data())
    return [login, followUp, signOut]
  }

  /// A cookie the app's cookie store holds for another host, which must never reach this one: it
  /// is planted in `storage` as `client.held[other-host-cookie]`, proven by its absence from the
  /// wire, and reported wherever it shows up (the wire included).
  ///
  /// Pass the cookie storage of the session the transport uses. The cookie, `other_host_session`,
  /// is for `<tracer>.other-host.invalid`, a host of this scope alone, so scopes running in
  /// parallel on one storage (such as `HTTPCookieStorage.shared` in parallel Swift Testing tests)
  /// never replace or delete each other's. The server removes it from `storage` when the kind's
  /// request arrives, and the scope when it finishes if the request never did, both before sinks
  /// are read: a ``CookieStorageSink`` on the same storage sees only what the app copied elsewhere.
  public static func heldCookie(in storage: HTTPCookieStorage) -> RequestKind {
    let store = CookieStoreReference(storage: storage)
    return RequestKind(
      name: "held-cookie", summary: "a cookie the store holds for another host, never to be sent here"
    ) { p in
      let value = p.canary(.token, at: .clientHeld("other-host-cookie"))
      let domain = "\(p.trap.tracer).other-host.invalid"
      let properties: [HTTPCookiePropertyKey: Any] = [
        .name: "other_host_session", .value: value, .domain: domain, .path: "/",
      ]
      guard let cookie = HTTPCookie(properties: properties) else {
        throw KindPlantingError(
          kind: p.kindName, reason: "HTTPCookie refused the planted cookie's properties")
      }
      let held = CookieReference(cookie: cookie)
      store.storage.setCookie(cookie)
      p.trap.whenFinishing { store.storage.deleteCookie(held.cookie) }
      guard (store.storage.cookies ?? []).contains(where: { $0.value == value }) else {
        throw KindPlantingError(kind: p.kindName, reason: store.refusal(of: domain))
      }
      p.server.on(.get, p.path("profile")) { _ in
        store.storage.deleteCookie(held.cookie)
        return .json(#"{"profile":"ok"}"#)
      }
      return [p.request("GET", p.url(p.path("profile")))]
    }
  }
}

/// `date` as an RFC 1123 HTTP date, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
func httpDate(_ date: Date) -> String {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "GMT")
  formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
  return formatter.string(from: date)
}

/// A kind that could not plant its canaries, with the reason.
package struct KindPlantingError: Error, CustomStringConvertible {
  /// The kind's name.
  package var kind: String
  /// What went wrong.
  package var reason: String

  /// A one-line description.
  package var description: String { "request kind \(kind) could not plant: \(reason)" }
}

/// Holds an `HTTPCookieStorage`, which is thread-safe but not marked `Sendable` everywhere.
private struct CookieStoreReference: @unchecked Sendable {
  let storage: HTTPCookieStorage

  /// Why the storage did not keep a cookie set for `domain`, naming its accept policy.
  func refusal(of domain: String) -> String {
    switch storage.cookieAcceptPolicy {
    case .never:
      return "the cookie storage refuses every cookie (its cookieAcceptPolicy is .never);"
        + " pass the storage of a session that accepts cookies"
    case .onlyFromMainDocumentDomain:
      return "the cookie storage did not keep the cookie set for \(domain)"
        + " (its cookieAcceptPolicy is .onlyFromMainDocumentDomain)"
    default:
      return "the cookie storage did not keep the cookie set for \(domain) although its cookieAcceptPolicy"
        + " is .always: something removed it as soon as it was set"
    }
  }
}

/// Holds an immutable `HTTPCookie`, which is not marked `Sendable` everywhere.
private struct CookieReference: @unchecked Sendable {
  let cookie: HTTPCookie
}

/// Where in an HTTP exchange a canary was planted, with a stable string form such as
/// `request.header[X-Session]` or `redirect[2].location.query[sig]`.
///
/// Any string is a valid location: one that names no known place is kept as ``custom(_:)``, so
/// manifests written by other tools round-trip unchanged.
public enum CanaryLocation: Sendable, Hashable {
  /// A part of the request URL.
  case requestURL(URLPart)
  /// A request header field, named as sent.
  case requestHeader(String)
  /// One part of the `Basic` credentials in a request header (`Authorization` or
  /// `Proxy-Authorization`), such as `request.header[Authorization].basic.password`: the user and
  /// the password of one header are two places, so a report says which of them leaked.
  case requestCredential(header: String, CredentialPart)
  /// A cookie sent in the request's `Cookie` header.
  case requestCookie(String)
  /// A part of the request body.
  case requestBody(BodyPart)
  /// A response header field, named as sent.
  case responseHeader(String)
  /// A cookie set by a response's `Set-Cookie` header. A cookie store sends it back in the
  /// `Cookie` header of later requests (see ``resentAs``).
  case responseCookie(String)
  /// A part of the response body.
  case responseBody(BodyPart)
  /// A header field of an informational (`1xx`) response sent before the final one, such as
  /// `response.informational[103].header[Link]` for `103 Early Hints`.
  case informationalHeader(status: Int, String)
  /// A trailer field sent after the last chunk of a chunked response body
  /// (`response.trailer[X-Checksum]`).
  case responseTrailer(String)
  /// A part of the `Location` URL of redirect hop `hop` (1 for the first redirect).
  case redirect(hop: Int, URLPart)
  /// A part of the `Location` URL of a response that is not a followed redirect, such as a
  /// `201 Created` (`response.location.query[token]`).
  case responseLocation(URLPart)
  /// A part of the URL the transport ends on after following every redirect.
  case finalURL(URLPart)
  /// A secret the client holds but must never send or log (a stored credential, a keychain
  /// item, a cookie for another host), such as `client.held[signing-key]`: proven by its absence
  /// from the wire, and reported wherever it shows up, the wire included.
  case clientHeld(String)
  /// A part of a WebSocket conversation after its opening handshake (the handshake itself is a
  /// request: its query, headers and `Sec-WebSocket-Protocol` are ``requestURL(_:)`` and
  /// ``requestHeader(_:)`` locations), such as `websocket.client[2].binary`.
  case webSocket(WebSocketPart)
  /// A location of an exchange that fails on purpose (see ``ExchangeFailure``), such as
  /// `failure[timed-out].request.url.query[token]`: the failure is part of the name, so every
  /// report says which error path leaked it. Failures do not nest.
  indirect case failedExchange(ExchangeFailure, CanaryLocation)
  /// A location written by the user or another tool, kept verbatim.
  case custom(String)

  /// A part of a WebSocket conversation; messages are counted from 1 per direction, in the order
  /// they were sent.
  public enum WebSocketPart: Sendable, Hashable {
    /// Message `index` the client sent, of the given type (`websocket.client[1].text`).
    case clientMessage(Int, WebSocketMessageType)
    /// Message `index` the server sent, of the given type (`websocket.server[2].binary`).
    case serverMessage(Int, WebSocketMessageType)
    /// The reason of the client's close frame (`websocket.client.close.reason`).
    case clientCloseReason
    /// The reason of the server's close frame (`websocket.server.close.reason`).
    case serverCloseReason
  }

  /// The type of a WebSocket message.
  public enum WebSocketMessageType: String, Sendable, Hashable {
    /// A text message.
    case text
    /// A binary message.
    case binary
  }

  /// A part of `Basic` credentials (`base64(user:password)`).
  public enum CredentialPart: String, Sendable, Hashable {
    /// The user, before the first `:`.
    case user
    /// The password, after the first `:`.
    case password
  }

  /// A part of a URL.
  public enum URLPart: Sendable, Hashable {
    /// The user name of the userinfo (`user` in `user:password@`).
    case user
    /// The password of the userinfo.
    case password
    /// The path segment at this zero-based index, counted after the leading slash.
    case path(Int)
    /// A `;name=value` parameter of a path segment.
    case pathParameter(String)
    /// The value of the query item with this name.
    case query(String)
    /// The fragment after `#`.
    case fragment
  }

  /// A part of a request or response body.
  public enum BodyPart: Sendable, Hashable {
    /// The JSON value at this dotted path (`user.tokens[0]`).
    case json(String)
    /// The value of a form-urlencoded field.
    case form(String)
    /// The value of a multipart text field.
    case multipartField(String)
    /// The content of the file in a multipart part.
    case multipartFile(String)
    /// The filename of the file in a multipart part.
    case multipartFilename(String)
    /// A plain-text body.
    case text
    /// The text of the XML element at this path (`login/password`).
    case xml(String)
    /// A field of one server-sent event of a `text/event-stream` body, counted from 1 in the order
    /// the events are dispatched (`event[2].data`).
    case event(Int, EventField)
  }

  /// A field of a server-sent event (WHATWG HTML, "Server-sent events").
  public enum EventField: String, Sendable, Hashable {
    /// The `data:` lines, joined with line feeds.
    case data
    /// The `id:` field.
    case id
    /// The `event:` field (the event's type).
    case event
  }

  /// Whether the canary travels from the app to the server (and the server proves delivery).
  package var isRequestSide: Bool {
    switch self {
    case .requestURL, .requestHeader, .requestCredential, .requestCookie, .requestBody: true
    case .webSocket(.clientMessage), .webSocket(.clientCloseReason): true
    case .failedExchange(_, let location): location.isRequestSide
    default: false
    }
  }

  /// Where a cookie store sends this canary back: `request.cookie[name]` for
  /// `response.cookie[name]`, nil for every other location. A leak of the re-sent `Cookie` header
  /// is a finding of the response cookie, re-sent in this location.
  public var resentAs: CanaryLocation? {
    if case .responseCookie(let name) = self { return .requestCookie(name) }
    return nil
  }

  /// What findings add after the place of a leak of a location a cookie store sends back, such
  /// as ` (set by the response, re-sent as request.cookie[session_id])`; empty for other locations.
  package var resentNote: String {
    resentAs.map { " (set by the response, re-sent as \($0))" } ?? ""
  }

  /// What messages add after a location of an exchange that failed on purpose, such as
  /// ` (an exchange where the connection was refused)`; empty for other locations.
  package var failureNote: String {
    guard case .failedExchange(let failure, _) = self else { return "" }
    return " (an exchange where \(failure.summary))"
  }
}

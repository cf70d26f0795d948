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
  /// A cookie sent in the request's `Cookie` header.
  case requestCookie(String)
  /// A part of the request body.
  case requestBody(BodyPart)
  /// A response header field, named as sent.
  case responseHeader(String)
  /// A cookie set by a response's `Set-Cookie` header.
  case responseCookie(String)
  /// A part of the response body.
  case responseBody(BodyPart)
  /// A part of the `Location` URL of redirect hop `hop` (1 for the first redirect).
  case redirect(hop: Int, URLPart)
  /// A part of the URL the transport ends on after following every redirect.
  case finalURL(URLPart)
  /// A location written by the user or another tool, kept verbatim.
  case custom(String)

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
  }

  /// Whether the canary travels from the app to the server (and the server proves delivery).
  public var isRequestSide: Bool {
    switch self {
    case .requestURL, .requestHeader, .requestCookie, .requestBody: true
    default: false
    }
  }
}

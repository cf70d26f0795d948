extension RequestKind {
  /// Every built-in kind, covering every built-in location (see <doc:Locations>), then the names
  /// apps use (`sensitiveNames`), then exchanges that fail on purpose (`failures`).
  public static var all: [RequestKind] {
    [
      getQuery, postJSON, postForm, multipartUpload, plainText, xml, basicAuthUserinfo, basicAuthHeader,
      proxyAuthorization, authHeaders, requestCookies, signIn,
    ] + redirects + [
      redirectChain, createdLocation, unauthorized, serverError, responseHeader, shapes, pathParameter,
      fragment,
    ] + sensitiveNames + failures
  }

  /// The built-in kind named `name`, if any.
  public static func named(_ name: String) -> RequestKind? {
    all.first { $0.name == name }
  }
}

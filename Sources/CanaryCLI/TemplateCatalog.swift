/// The canary suite templates `canary init` writes, one per request kind in two flavours; their
/// text is embedded (see TemplateSources.swift, generated from `Templates/Tests`, their only
/// source), and `canary init --xcode-templates` writes them as Xcode file templates.
enum TemplateCatalog {
  /// A request kind users add often, with the suite that tests it.
  struct Kind: Sendable, Hashable {
    /// The name given to `canary init`, such as `sign-in`.
    let name: String
    /// The suite's type and file base name, such as `SignInLeakTests`.
    let suiteName: String
    /// One line saying what the template plants.
    let summary: String
    /// The name of its Xcode file template, such as `Sign-In` (in `Sign-In Canary Suite.xctemplate`).
    let title: String

    /// The file name of the flavour, such as `SignInLeakTests.swift` or `SignInLeakXCTests.swift`.
    func fileName(xctest: Bool) -> String {
      xctest ? suiteName.replacingOccurrences(of: "Tests", with: "XCTests") + ".swift" : suiteName + ".swift"
    }
  }

  /// Every kind, in the order `canary init --list` prints them.
  static let kinds: [Kind] = [
    Kind(
      name: "sign-in", suiteName: "SignInLeakTests",
      summary: "sign-in with tokens in the body and a session cookie", title: "Sign-In"),
    Kind(
      name: "json-api", suiteName: "JSONAPILeakTests",
      summary: "a JSON API call with Authorization, an API key and a custom auth header", title: "JSON API"),
    Kind(
      name: "multipart", suiteName: "MultipartUploadLeakTests",
      summary: "a multipart upload with a text field, a file and its filename", title: "Multipart Upload"),
    Kind(
      name: "signed-download", suiteName: "SignedDownloadLeakTests",
      summary: "a redirect to a signed download URL", title: "Signed Download"),
    Kind(
      name: "token-refresh", suiteName: "TokenRefreshLeakTests",
      summary: "token refresh after a 401 challenge", title: "Token Refresh"),
    Kind(
      name: "graphql", suiteName: "GraphQLLeakTests",
      summary: "a GraphQL POST with variables and a token in the response", title: "GraphQL"),
    Kind(
      name: "openapi", suiteName: "OpenAPILeakTests",
      summary: "every operation of your project's OpenAPI document (JSON), from a path set at the top",
      title: "OpenAPI"),
    Kind(
      name: "custom-kind", suiteName: "CustomKindLeakTests",
      summary: "a request kind of your own: PATCH /profile with a nested JSON body, rejected with 422",
      title: "Custom Kind"),
  ]

  /// The kind named `name`, or nil.
  static func kind(named name: String) -> Kind? {
    kinds.first { $0.name == name.lowercased() }
  }

  /// The template text of `kind` in the chosen flavour.
  static func source(of kind: Kind, xctest: Bool) -> String? {
    TemplateSources.files[kind.fileName(xctest: xctest)]
  }
}

/// The form a canary takes, because shape-based redactors treat each form differently.
public enum CanaryShape: String, Sendable, Hashable, Codable, CaseIterable {
  /// An opaque token such as `cnry5kq2…`, like an API key or session ID.
  case token
  /// An email address at `example.invalid`.
  case email
  /// A UUID in its canonical 8-4-4-4-12 form.
  case uuid
  /// A long run of decimal digits, like an account or card number.
  case number
  /// A signed-looking JSON Web Token whose payload carries an opaque token.
  case jwt
  /// A password with symbols that must be percent- or form-encoded in URLs and forms.
  case password
}

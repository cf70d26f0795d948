/// A name that carries a secret or personal data in real APIs, with the places it appears in and
/// the shape of the value it carries: one entry of the catalog `RequestKind.sensitiveNames`
/// plants.
///
/// The catalog ``catalog`` is plain data: filter it to a subset, append entries of your own, and
/// pass the result to ``RequestKind/kinds(planting:)``.
public struct SensitiveName: Sendable, Hashable {
  /// What a name carries.
  public enum Category: String, Sendable, Hashable, CaseIterable {
    /// An API key.
    case apiKey
    /// A bearer, session, OAuth or signing token, or a request signature.
    case token
    /// A password, client secret or private key.
    case credential
    /// A one-time or verification code.
    case oneTimeCode
    /// Personal data: email, phone, name, address, birth date, national id.
    case personal
    /// A precise location (latitude, longitude).
    case location
    /// Payment data: card number, CVV, IBAN, account number.
    case payment
    /// A device or advertising identifier, or a push token.
    case device
  }

  /// A place in an HTTP exchange where a name carries its value.
  public enum Place: String, Sendable, Hashable, CaseIterable {
    /// A query item of the request URL.
    case query
    /// A request header.
    case header
    /// A cookie of the request's `Cookie` header.
    case cookie
    /// A top-level key of a JSON request body.
    case json
    /// A key of an object nested in a JSON request body (`data.<name>`).
    case nestedJSON
    /// A form-urlencoded field.
    case form
    /// A multipart/form-data text field.
    case multipart
    /// A key of a JSON response body, top level and nested (`data.<name>`).
    case responseJSON
    /// A response header.
    case responseHeader
  }

  /// The name, spelled exactly as it is sent.
  public let name: String
  /// What the name carries.
  public let category: Category
  /// The shape of the canary planted under the name.
  package let shape: CanaryShape
  /// Every place the name is planted in.
  package let places: Set<Place>
  /// Where the name is documented: an OWASP list, an RFC, a vendor's documented parameter.
  package let source: String

  /// Creates an entry.
  public init(
    _ name: String, _ category: Category, _ shape: CanaryShape, in places: Set<Place>, source: String
  ) {
    self.name = name
    self.category = category
    self.shape = shape
    self.places = places
    self.source = source
  }
}

extension SensitiveName.Place {
  /// Where a request parameter travels: query, JSON (top level and nested), form and multipart.
  public static let parameter: Set<Self> = [.query, .json, .nestedJSON, .form, .multipart]
  /// Where a body field travels: JSON (top level and nested), form and multipart.
  public static let bodyField: Set<Self> = [.json, .nestedJSON, .form, .multipart]

}

/// An HTTP request method such as `GET`; ``any`` matches every method in a route.
public struct HTTPMethod: Hashable, Sendable, ExpressibleByStringLiteral, RawRepresentable,
  CustomStringConvertible
{
  /// The method token as sent on the wire (upper case for the standard methods).
  public var rawValue: String

  /// Creates a method from its token.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Creates a method from a string literal such as `"PROPFIND"`.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// The method token.
  public var description: String { rawValue }

  /// `GET`.
  public static let get: HTTPMethod = "GET"
  /// `POST`.
  public static let post: HTTPMethod = "POST"
  /// `PUT`.
  public static let put: HTTPMethod = "PUT"
  /// `PATCH`.
  public static let patch: HTTPMethod = "PATCH"
  /// `DELETE`.
  public static let delete: HTTPMethod = "DELETE"
  /// `HEAD`.
  public static let head: HTTPMethod = "HEAD"
  /// `OPTIONS`.
  public static let options: HTTPMethod = "OPTIONS"
  /// Matches any method when used in a route.
  public static let any: HTTPMethod = "*"
}

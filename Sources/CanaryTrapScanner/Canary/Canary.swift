/// A unique fake secret planted at one location of an HTTP exchange.
///
/// Two canaries are equal when every field is equal; the ``value`` alone identifies a canary in a
/// scan.
public struct Canary: Sendable, Hashable {
  /// The secret itself, exactly as planted.
  public var value: String
  /// Where the canary was planted.
  public var location: CanaryLocation
  /// The form of the value, when known.
  public var shape: CanaryShape?
  /// Manifest fields CanaryTrap does not interpret, kept so that a round trip loses nothing.
  package var extraFields: [String: JSONValue]

  /// Creates a canary from a value minted elsewhere.
  package init(value: String, location: CanaryLocation, shape: CanaryShape? = nil) {
    self.init(value: value, location: location, shape: shape, extraFields: [:])
  }

  /// Creates a canary that keeps manifest fields CanaryTrap does not interpret.
  package init(
    value: String, location: CanaryLocation, shape: CanaryShape?, extraFields: [String: JSONValue]
  ) {
    self.value = value
    self.location = location
    self.shape = shape
    self.extraFields = extraFields
  }

  /// The value's UTF-8 bytes, the unit every scan works on.
  package var bytes: [UInt8] { Array(value.utf8) }
}

extension Canary: CustomStringConvertible {
  /// A short form for messages: the location and the value.
  public var description: String { "\(location) = \(value)" }
}

/// Tells whether two thrown errors are the same error, by identity, never by description.
enum ErrorIdentity {
  /// The same instance for class errors; for value errors, the same type and, when the type is
  /// `Equatable`, an equal value.
  static func same(_ first: any Error, _ second: any Error) -> Bool {
    guard ObjectIdentifier(type(of: first)) == ObjectIdentifier(type(of: second)) else { return false }
    if type(of: first) is AnyClass { return (first as AnyObject) === (second as AnyObject) }
    // Through `Any`: cast from `any Error` directly, the compiler warns that it always succeeds,
    // which it does not (a struct error need not be `Equatable`).
    if let equatable = (first as Any) as? any Equatable { return isEqual(equatable, second) }
    return true
  }

  private static func isEqual<Value: Equatable>(_ value: Value, _ other: any Error) -> Bool {
    (other as? Value) == value
  }
}

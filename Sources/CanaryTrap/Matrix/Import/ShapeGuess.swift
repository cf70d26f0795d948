import Foundation

/// Picks the shape of a canary from what a document says about the value: its name, its schema,
/// or the value recorded.
enum ShapeGuess {
  /// The catalog's shapes by lower-cased name.
  static let catalogShapes: [String: CanaryShape] = Dictionary(
    SensitiveName.catalog.map { ($0.name.lowercased(), $0.shape) }, uniquingKeysWith: { first, _ in first })

  /// The shape for a value named `name`, from the catalog or the words in the name.
  static func forName(_ name: String) -> CanaryShape? {
    let lower = name.lowercased()
    if let shape = catalogShapes[lower] { return shape }
    if lower.contains("email") { return .email }
    if lower.contains("password") || lower.contains("passwd") { return .password }
    if lower.hasSuffix("uuid") || lower.hasSuffix("guid") { return .uuid }
    return nil
  }

  /// The shape for a value named `name` whose OpenAPI schema has `type` and `format`.
  static func forSchema(name: String?, type: String?, format: String?) -> CanaryShape {
    switch format?.lowercased() {
    case "email", "idn-email": return .email
    case "uuid": return .uuid
    case "password": return .password
    case "int32", "int64", "double", "float": return .number
    default: break
    }
    if type == "integer" || type == "number" { return .number }
    return name.flatMap(forName) ?? .token
  }

  /// The shape for a recorded `value` named `name`.
  static func forValue(_ value: String, name: String?) -> CanaryShape {
    if UUID(uuidString: value) != nil { return .uuid }
    let parts = value.split(separator: ".", omittingEmptySubsequences: false)
    if value.hasPrefix("eyJ"), parts.count == 3 { return .jwt }
    if !value.isEmpty, value.count <= 40, value.allSatisfy({ $0.isASCII && $0.isNumber }) { return .number }
    if let at = value.firstIndex(of: "@"), value[at...].contains("."), !value.contains(" ") { return .email }
    return name.flatMap(forName) ?? .token
  }

  /// `shape`, or a token where the place cannot carry it unchanged (a password's spaces and
  /// symbols in a path segment or cookie).
  static func fitting(_ shape: CanaryShape, inPathOrCookie: Bool) -> CanaryShape {
    inPathOrCookie && shape == .password ? .token : shape
  }
}

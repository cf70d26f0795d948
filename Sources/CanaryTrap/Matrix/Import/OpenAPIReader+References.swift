import Foundation

/// `$ref` resolution inside the document; a reference to another document is reported, not read.
extension OpenAPIReader {
  /// `value`, or what its `$ref` points to (following chains), with the pointer it was found at.
  /// A reference to another document is reported and resolves to `null`; a local reference that
  /// points nowhere throws.
  mutating func resolved(_ value: JSONValue, at pointer: String) throws -> (JSONValue, String) {
    var current = value
    var currentPointer = pointer
    for _ in 0..<16 {
      guard case .object(let object) = current, case .string(let ref) = object["$ref"] else {
        return (current, currentPointer)
      }
      guard ref.hasPrefix("#") else {
        collector.skip(currentPointer, "$ref \(ref) points into another document, which is not read")
        return (.null, currentPointer)
      }
      guard let (target, targetPointer) = lookUp(ref) else {
        throw malformed(currentPointer, "$ref \(ref) points to nothing in this document")
      }
      current = target
      currentPointer = targetPointer
    }
    throw malformed(pointer, "a chain of more than 16 $refs (or a $ref cycle) starts here")
  }

  /// Like ``resolved(_:at:)``, reporting nothing.
  func resolvedQuietly(_ value: JSONValue) throws -> (JSONValue, String) {
    var current = value
    for _ in 0..<16 {
      guard case .object(let object) = current, case .string(let ref) = object["$ref"] else {
        return (current, "")
      }
      guard let (target, _) = lookUp(ref) else { throw KindImportError.malformed(pointer: "", "") }
      current = target
    }
    throw KindImportError.malformed(pointer: "", "")
  }

  private func lookUp(_ ref: String) -> (JSONValue, String)? {
    guard ref.hasPrefix("#") else { return nil }
    let fragment = String(ref.dropFirst()).removingPercentEncoding ?? String(ref.dropFirst())
    guard fragment.isEmpty || fragment.hasPrefix("/") else { return nil }
    var node = root
    for token in fragment.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let key = JSONPointer.unescape(token)
      switch node {
      case .object(let object):
        guard let child = object[key] else { return nil }
        node = child
      case .array(let items):
        guard let index = Int(key), items.indices.contains(index) else { return nil }
        node = items[index]
      default: return nil
      }
    }
    return (node, fragment)
  }
}

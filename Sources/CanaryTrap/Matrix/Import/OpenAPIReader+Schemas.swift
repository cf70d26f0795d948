import Foundation

/// Schemas walked into the shapes and JSON templates that carry canaries.
extension OpenAPIReader {
  /// The shape of a scalar parameter or header, or nil (reported) when it cannot hold one.
  mutating func scalarShape(_ schema: JSONValue?, name: String, at pointer: String) throws
    -> CanaryShape?
  {
    guard let schema else { return ShapeGuess.forName(name) ?? .token }
    let (value, _) = try resolved(schema, at: pointer + "/schema")
    guard case .object(var object) = value else { return ShapeGuess.forName(name) ?? .token }
    for combinator in ["allOf", "oneOf", "anyOf"] {
      if case .array(let branches) = object[combinator], let first = branches.first,
        case .object(let branch) = try resolved(first, at: pointer).0
      {
        object = branch.merging(object.filter { $0.key != combinator }) { a, _ in a }
      }
    }
    var type = Self.type(of: object)
    if type == "array", let items = object["items"],
      case .object(let itemObject) = try resolved(items, at: pointer).0
    {
      object = itemObject
      type = Self.type(of: object)
    }
    if type == "object" {
      collector.skip(
        pointer, "\(name) is an object; only scalar and array parameters and headers are planted")
      return nil
    }
    let format: String? = if case .string(let f) = object["format"] { f } else { nil }
    return ShapeGuess.forSchema(name: name, type: type, format: format)
  }

  static func type(of schema: Object) -> String? {
    switch schema["type"] {
    case .string(let type): return type
    case .array(let types):
      for case .string(let type) in types where type != "null" { return type }
      return nil
    default:
      if schema["properties"] != nil { return "object" }
      if schema["items"] != nil { return "array" }
      return nil
    }
  }

  /// The JSON template of `schema`, or nil when nothing in it can be planted (reported).
  mutating func template(_ schema: JSONValue, name: String?, at pointer: String, depth: Int, refs: [String])
    throws -> JSONTemplate?
  {
    guard spend(at: pointer, canary: false) else { return nil }
    guard depth <= limits.maxSchemaDepth else {
      collector.skip(
        pointer, "deeper than \(limits.maxSchemaDepth) levels (ImportLimits.maxSchemaDepth): not planted")
      return nil
    }
    guard case .object(let object) = schema else {
      if case .bool(true) = schema { return spend(at: pointer, canary: true) ? .canary(.token) : nil }
      collector.skip(pointer, "a schema must be an object: not planted")
      return nil
    }
    if case .string(let ref) = object["$ref"] {
      if refs.contains(ref) {
        collector.skip(pointer, "recursive $ref \(ref): planted once, not again inside itself")
        return nil
      }
      let (target, targetPointer) = try resolved(schema, at: pointer)
      if case .null = target, !ref.hasPrefix("#") { return nil }
      return try template(target, name: name, at: targetPointer, depth: depth + 1, refs: refs + [ref])
    }
    if case .array(let branches) = object["allOf"] {
      var members: [(String, JSONTemplate)] = []
      var other: JSONTemplate?
      for (index, branch) in branches.enumerated() {
        switch try template(branch, name: name, at: "\(pointer)/allOf/\(index)", depth: depth + 1, refs: refs)
        {
        case .some(.object(let more)):
          members += more.filter { member in !members.contains { $0.0 == member.0 } }
        case .some(let value): other = other ?? value
        case nil: break
        }
      }
      let rest = object.filter { $0.key != "allOf" }
      if rest["properties"] != nil,
        case .object(let more)? = try template(
          .object(rest), name: name, at: pointer, depth: depth, refs: refs)
      {
        members += more.filter { member in !members.contains { $0.0 == member.0 } }
      }
      return members.isEmpty ? other : .object(members)
    }
    for combinator in ["oneOf", "anyOf"] {
      if case .array(let branches) = object[combinator], let first = branches.first {
        if branches.count > 1 {
          collector.skip(
            "\(pointer)/\(combinator)",
            "\(combinator) is planted by its first branch; \(branches.count - 1) other branch(es) are not")
        }
        return try template(first, name: name, at: "\(pointer)/\(combinator)/0", depth: depth + 1, refs: refs)
      }
    }
    if case .array(let values) = object["enum"], let first = values.first { return .literal(first) }
    if let constant = object["const"] { return .literal(constant) }
    let type = Self.type(of: object)
    switch type {
    case "object":
      guard case .object(let properties) = object["properties"], !properties.isEmpty else {
        let free =
          object["additionalProperties"].map { if case .bool(false) = $0 { false } else { true } } ?? true
        collector.skip(
          pointer,
          free
            ? "a free-form object (no documented properties): nothing to plant"
            : "an object without properties: nothing to plant")
        return nil
      }
      var members: [(String, JSONTemplate)] = []
      for key in properties.keys.sorted() {
        let propertyPointer = JSONPointer.child(pointer + "/properties", key)
        guard JSONTemplate.isAddressable(key) else {
          collector.skip(
            propertyPointer, "property name `\(key)` holds `.`, `[` or `]`, which a JSON path cannot address")
          continue
        }
        if let member = try template(
          properties[key]!, name: key, at: propertyPointer, depth: depth + 1, refs: refs)
        {
          members.append((key, member))
        }
      }
      return members.isEmpty ? nil : .object(members)
    case "array":
      guard let items = object["items"] else {
        collector.skip(pointer, "an array without items: nothing to plant")
        return nil
      }
      return try template(items, name: name, at: pointer + "/items", depth: depth + 1, refs: refs).map {
        .array([$0])
      }
    case "boolean": return .literal(.bool(true))
    case "null": return .literal(.null)
    default:
      guard spend(at: pointer, canary: true) else { return nil }
      let format: String? = if case .string(let f) = object["format"] { f } else { nil }
      return .canary(ShapeGuess.forSchema(name: name, type: type, format: format))
    }
  }
}

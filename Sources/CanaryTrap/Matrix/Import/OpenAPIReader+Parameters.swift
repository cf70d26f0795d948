import Foundation

/// Parameters: reading them (path-item and operation level) and planting them in the path
/// template, the query, the headers and the cookies.
extension OpenAPIReader {
  /// One declared parameter, after `$ref`s, with where it was declared.
  struct Parameter {
    var name: String
    var location: String
    var schema: JSONValue?
    var pointer: String
    /// The value sent instead of a canary when the document marks the parameter
    /// `"x-canary": false`; nil when it is planted.
    var declinedValue: String? = nil
  }

  /// The value a declined parameter is sent with: its example, its schema's example, default or
  /// first enum value when that is made of URL-unreserved characters (fit for a path, query,
  /// header or cookie as it is), else `1`, `true` or `x` by type.
  static func declinedValue(_ parameter: Object, schema: JSONValue?) -> String {
    let schemaObject: Object = if case .object(let object) = schema { object } else { [:] }
    var candidates = [parameter["example"], schemaObject["example"], schemaObject["default"]]
    if case .array(let values) = schemaObject["enum"] { candidates.append(values.first) }
    for text in candidates.compactMap({ $0.map(Self.text(of:)) }) {
      if !text.isEmpty, text.utf8.count <= 200,
        text.unicodeScalars.allSatisfy({
          ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            || "-._~".unicodeScalars.contains($0)
        })
      {
        return text
      }
    }
    switch Self.type(of: schemaObject) {
    case "integer", "number": return "1"
    case "boolean": return "true"
    default: return "x"
    }
  }

  mutating func parameters(_ value: JSONValue?, at pointer: String) throws -> [Parameter] {
    guard let value else { return [] }
    guard case .array(let items) = value else { throw malformed(pointer, "parameters must be an array") }
    var out: [Parameter] = []
    for (index, item) in items.enumerated() {
      let itemPointer = "\(pointer)/\(index)"
      let (resolvedItem, resolvedPointer) = try resolved(item, at: itemPointer)
      guard case .object(let parameter) = resolvedItem else {
        if case .null = resolvedItem { continue }  // an external $ref, reported by resolved(_:at:)
        throw malformed(itemPointer, "a parameter must be an object")
      }
      guard case .string(let name) = parameter["name"], !name.isEmpty else {
        throw malformed(resolvedPointer, "a parameter needs a non-empty string \"name\"")
      }
      guard case .string(let location) = parameter["in"] else {
        throw malformed(resolvedPointer, "parameter \(name) needs \"in\" (path, query, header or cookie)")
      }
      var schema = parameter["schema"]
      if schema == nil, case .object(let content) = parameter["content"],
        let first = content.keys.sorted().first,
        case .object(let media) = content[first]
      {
        schema = media["schema"]
      }
      var entry = Parameter(name: name, location: location, schema: schema, pointer: resolvedPointer)
      if parameter["x-canary"] == .bool(false) {
        entry.declinedValue = Self.declinedValue(parameter, schema: schema)
      }
      out.append(entry)
    }
    return out
  }

  /// Plants the path template's segments: each `{name}` from its path parameter, mixed segments as
  /// literals; a path parameter the template does not name is reported.
  mutating func plantPath(
    _ path: String, parameters merged: [Parameter], in exchange: inout PlannedExchange, at pointer: String
  ) throws {
    var pathParameters = merged.filter { $0.location == "path" }
    for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
      if segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 {
        let name = String(segment.dropFirst().dropLast())
        let parameter = pathParameters.first { $0.name == name }
        pathParameters.removeAll { $0.name == name }
        if let parameter, let value = parameter.declinedValue {
          collector.decline(parameter.pointer, name, sentAs: value)
          exchange.path.append(.literal(value))
        } else if let parameter, spend(at: parameter.pointer, canary: true),
          let shape = try scalarShape(parameter.schema, name: name, at: parameter.pointer)
        {
          exchange.path.append(.canary(ShapeGuess.fitting(shape, inPathOrCookie: true)))
        } else {
          if parameter == nil {
            collector.skip(pointer, "path template {\(name)} has no parameter: planted as the literal `x`")
          }
          exchange.path.append(.literal("x"))
        }
      } else if segment.contains("{") {
        var literal = String(segment)
        while let open = literal.firstIndex(of: "{"), let close = literal[open...].firstIndex(of: "}") {
          let name = String(literal[literal.index(after: open)..<close])
          pathParameters.removeAll { $0.name == name }
          literal.replaceSubrange(open...close, with: "x")
        }
        collector.skip(
          pointer, "path segment `\(segment)` mixes text and parameters: planted as the literal `\(literal)`")
        exchange.path.append(.literal(literal))
      } else {
        exchange.path.append(.literal(String(segment)))
      }
    }
    for parameter in pathParameters {
      collector.skip(parameter.pointer, "path parameter \(parameter.name) is not in the path template")
    }
  }

  /// Plants the query, header and cookie parameters, each as a canary or its declined value.
  mutating func plantParameters(_ merged: [Parameter], in exchange: inout PlannedExchange) throws {
    for parameter in merged where parameter.location != "path" {
      let slot: PlannedExchange.Slot
      if let value = parameter.declinedValue {
        collector.decline(parameter.pointer, parameter.name, sentAs: value)
        slot = .literal(value)
      } else {
        guard spend(at: parameter.pointer, canary: true) else { break }
        guard let shape = try scalarShape(parameter.schema, name: parameter.name, at: parameter.pointer)
        else {
          continue
        }
        slot = .canary(
          parameter.location == "cookie" ? ShapeGuess.fitting(shape, inPathOrCookie: true) : shape)
      }
      switch parameter.location {
      case "query":
        exchange.query.append(.init(name: parameter.name, slot: slot))
      case "header":
        if Self.ignoredHeaders.contains(parameter.name.lowercased()) {
          collector.skip(
            parameter.pointer,
            "header parameter \(parameter.name) is ignored by OpenAPI (set by content type or security)")
        } else if !Self.isToken(parameter.name) {
          collector.skip(parameter.pointer, "header name \(parameter.name) is not a valid HTTP field name")
        } else {
          exchange.headers.append(.init(name: parameter.name, slot: slot))
        }
      case "cookie":
        if Self.isToken(parameter.name) {
          exchange.cookies.append(.init(name: parameter.name, slot: slot))
        } else {
          collector.skip(parameter.pointer, "cookie name \(parameter.name) is not a valid cookie name")
        }
      default:
        throw malformed(
          parameter.pointer,
          "parameter \(parameter.name) has \"in\": \"\(parameter.location)\"; it must be path, query, header or cookie"
        )
      }
    }
  }
}

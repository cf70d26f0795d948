import Foundation

/// Request bodies: one planned body per supported media type (JSON, form, multipart, XML, text).
extension OpenAPIReader {
  /// The bodies of the request body `value`, one per media type that can be planted.
  mutating func requestBodies(_ value: JSONValue, at pointer: String) throws -> [PlannedExchange.Body] {
    let (bodyValue, bodyPointer) = try resolved(value, at: pointer)
    guard case .object(let body) = bodyValue else {
      if case .null = bodyValue { return [] }
      throw malformed(pointer, "a request body must be an object")
    }
    guard case .object(let content) = body["content"] else {
      throw malformed(bodyPointer, "a request body needs a \"content\" object")
    }
    var out: [PlannedExchange.Body] = []
    for mediaType in content.keys.sorted() {
      let mediaPointer = JSONPointer.child(bodyPointer + "/content", mediaType)
      let lower = mediaType.lowercased()
      let schema: JSONValue? =
        if case .object(let media) = content[mediaType] { media["schema"] } else { nil }
      let isJSON =
        lower.hasPrefix("application/json") || (lower.hasPrefix("application/") && lower.contains("+json"))
      if isJSON {
        guard let schema else {
          collector.skip(mediaPointer, "no schema: nothing to plant")
          continue
        }
        if let template = try template(schema, name: nil, at: mediaPointer + "/schema", depth: 0, refs: []) {
          out.append(.json(template, contentType: mediaType))
        }
      } else if lower.hasPrefix("application/x-www-form-urlencoded") || lower.hasPrefix("multipart/form-data")
      {
        let multipart = lower.hasPrefix("multipart/")
        guard let schema,
          case .object(let members)? = try template(
            schema, name: nil, at: mediaPointer + "/schema", depth: 0, refs: [])
        else {
          collector.skip(mediaPointer, "the schema is not an object with properties: nothing to plant")
          continue
        }
        if !multipart {
          if let form = formBody(members, media: content[mediaType], at: mediaPointer) { out.append(form) }
          continue
        }
        if let parts = multipartBody(members, schema: schema, at: mediaPointer) { out.append(parts) }
      } else if Self.isXML(lower) {
        guard let schema else {
          collector.skip(mediaPointer, "no schema: nothing to plant")
          continue
        }
        if let element = try xmlBody(schema, at: mediaPointer + "/schema") {
          out.append(.xml(element, contentType: mediaType))
        }
      } else if lower.hasPrefix("text/plain") {
        out.append(.text(.canary(.token), contentType: mediaType))
      } else {
        collector.skip(
          mediaPointer,
          "media type \(mediaType) is not planted (JSON, form, multipart, XML and text/plain are)")
      }
    }
    return out
  }

  /// A form body of the top-level `members` of its schema, encoded as the media type object
  /// `media` says; nil when no field can be planted.
  private mutating func formBody(
    _ members: [(String, JSONTemplate)], media: JSONValue?, at mediaPointer: String
  )
    -> PlannedExchange.Body?
  {
    let encoding: [String: JSONValue] =
      if case .object(let media) = media, case .object(let e) = media["encoding"] {
        e
      } else {
        [:]
      }
    var fields: [PlannedExchange.Field] = []
    var names: Set<String> = []
    for (name, member) in members {
      let propertyPointer = JSONPointer.child(mediaPointer + "/schema/properties", name)
      for field in formFields(name, member, encoding: encoding[name], at: propertyPointer) {
        guard names.insert(field.name).inserted else {
          collector.skip(
            propertyPointer,
            "a second form field named \(field.name) is not planted (its location would be ambiguous)")
          continue
        }
        fields.append(field)
      }
    }
    return fields.isEmpty ? nil : .form(fields)
  }

  /// A multipart body with one part per scalar top-level member (a file part when the schema
  /// marks it binary); nil when no part can be planted.
  private mutating func multipartBody(
    _ members: [(String, JSONTemplate)], schema: JSONValue, at mediaPointer: String
  ) -> PlannedExchange.Body? {
    var parts: [PlannedExchange.Part] = []
    for (name, member) in members {
      var leaf = member
      if case .array(let items) = member, let first = items.first { leaf = first }
      switch leaf {
      case .canary, .literal:
        let binary = Self.isBinary(schema: schema, property: name, resolver: self)
        let field = Self.formField(name, leaf)
        parts.append(.init(name: name, slot: field.slot, isFile: binary && leaf.isCanary))
      case .object, .array:
        collector.skip(
          JSONPointer.child(mediaPointer + "/schema/properties", name),
          "a nested object in a multipart body is not planted")
      }
    }
    return parts.isEmpty ? nil : .multipart(parts)
  }

  static func isBinary(schema: JSONValue, property: String, resolver: OpenAPIReader) -> Bool {
    guard let resolvedSchema = try? resolver.resolvedQuietly(schema),
      case .object(let object) = resolvedSchema.0, case .object(let properties) = object["properties"],
      let propertyValue = properties[property],
      let propertySchema = try? resolver.resolvedQuietly(propertyValue),
      case .object(let property) = propertySchema.0
    else { return false }
    var schema = property
    if case .string("array") = property["type"], case .object(let items) = property["items"] {
      schema = items
    }
    if case .string(let format) = schema["format"], format == "binary" || format == "byte" { return true }
    return schema["contentMediaType"] != nil
  }
}

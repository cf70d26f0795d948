import Foundation

/// The form and XML encodings of request bodies: nested form fields as the media type's
/// `encoding` says (`style: deepObject` → `card[number]`, exploded `form` → one field per
/// property, arrays by one element), and XML bodies built from the schema's properties with their
/// `xml` object (`name`, `attribute`, `wrapped`).
extension OpenAPIReader {
  // MARK: Form fields

  /// The form fields of the top-level property `name` of a form body, whose JSON template is
  /// `member`, encoded as `encoding` (the media type's encoding entry for it) says.
  mutating func formFields(
    _ name: String, _ member: JSONTemplate, encoding: JSONValue?, at pointer: String
  ) -> [PlannedExchange.Field] {
    let (style, explode) = Self.formStyle(encoding)
    switch member {
    case .canary, .literal:
      return [Self.formField(name, member)]
    case .array(let items):
      guard let first = items.first else { return [] }
      if style == "deepObject" { return bracketedFields(name + "[0]", first) }
      guard first.isLeaf else {
        collector.skip(
          pointer,
          "an array of objects in a form body is planted only with style deepObject (\(name)[0][key]); style \(style) does not define it"
        )
        return []
      }
      // One element: `name=value` whatever the style (form, spaceDelimited, pipeDelimited) and explode.
      return [Self.formField(name, first)]
    case .object(let members):
      if style == "deepObject" { return bracketedFields(name, member) }
      guard style == "form", explode else {
        collector.skip(
          pointer,
          "an object in a form body with style \(style), explode \(explode) is not planted (deepObject and exploded form are)"
        )
        return []
      }
      var fields: [PlannedExchange.Field] = []
      for (key, value) in members {
        guard value.isLeaf else {
          collector.skip(
            JSONPointer.child(pointer + "/properties", key),
            "an object nested in an exploded form object has no form encoding; style deepObject plants it")
          continue
        }
        fields.append(Self.formField(key, value))
      }
      return fields
    }
  }

  /// `prefix[key][0]…=value` for every leaf of `template` (deepObject style, arrays indexed).
  private func bracketedFields(_ prefix: String, _ template: JSONTemplate) -> [PlannedExchange.Field] {
    switch template {
    case .canary, .literal: [Self.formField(prefix, template)]
    case .object(let members): members.flatMap { bracketedFields("\(prefix)[\($0.0)]", $0.1) }
    case .array(let items): items.first.map { bracketedFields(prefix + "[0]", $0) } ?? []
    }
  }

  /// The style and explode of a form property's encoding entry (defaults: form, exploded).
  private static func formStyle(_ encoding: JSONValue?) -> (style: String, explode: Bool) {
    guard case .object(let object) = encoding else { return ("form", true) }
    let style: String = if case .string(let s) = object["style"] { s } else { "form" }
    let explode: Bool = if case .bool(let e) = object["explode"] { e } else { style == "form" }
    return (style, explode)
  }

  /// A form field holding a leaf: a canary slot, or a literal written as text.
  static func formField(_ name: String, _ leaf: JSONTemplate) -> PlannedExchange.Field {
    switch leaf {
    case .canary(let shape): .init(name: name, slot: .canary(shape))
    case .literal(let value): .init(name: name, slot: .literal(Self.text(of: value)))
    case .object, .array: .init(name: name, slot: .literal(""))
    }
  }

  /// A JSON literal as the text a form field or XML element carries.
  static func text(of value: JSONValue) -> String {
    switch value {
    case .string(let string): string
    case .null: ""
    case .bool(let flag): flag ? "true" : "false"
    case .number(let number):
      number.isFinite && number == number.rounded() && abs(number) < 1e15
        ? String(Int64(number)) : String(number)
    case .array, .object: JSONTemplateWriter.text(of: .literal(value)) { _ in "" }
    }
  }

  // MARK: XML

  /// The XML body of `schema`: the root element named by its `xml.name`, else its component's
  /// name; properties as child elements (or attributes), arrays by one item; nil (reported) when
  /// nothing can be planted.
  mutating func xmlBody(_ schema: JSONValue, at pointer: String) throws -> XMLElementTemplate? {
    guard let json = try template(schema, name: nil, at: pointer, depth: 0, refs: []) else { return nil }
    guard case .object = json else {
      collector.skip(pointer, "an XML body whose schema is not an object is not planted")
      return nil
    }
    let rootName = xmlInfo(schema, at: pointer).name ?? Self.componentName(schema) ?? "root"
    return xmlElement(rootName, json, schema: schema, at: pointer)
  }

  /// The element `name` holding `template`, with `schema`'s properties' `xml` objects applied.
  private mutating func xmlElement(
    _ name: String, _ template: JSONTemplate, schema: JSONValue?, at pointer: String
  ) -> XMLElementTemplate {
    var element = XMLElementTemplate(name: name)
    switch template {
    case .canary(let shape): element.text = .canary(shape)
    case .literal(let value): element.text = .literal(Self.text(of: value))
    case .array(let items):
      // An array nested directly in an array: its first item, under the same name.
      if let first = items.first {
        return xmlElement(name, first, schema: schema.flatMap { itemsSchema($0) }, at: pointer + "/items")
      }
    case .object(let members):
      var taken: Set<String> = []
      for (key, member) in members {
        let propertyPointer = JSONPointer.child(pointer + "/properties", key)
        let propertySchema = schema.flatMap { self.propertySchema($0, key) }
        let info = xmlInfo(propertySchema, at: propertyPointer)
        let childName = info.name ?? key
        if info.attribute {
          guard member.isLeaf else {
            collector.skip(propertyPointer, "an XML attribute must hold a scalar: not planted")
            continue
          }
          guard taken.insert("@" + childName).inserted else {
            collector.skip(propertyPointer, "a second XML attribute named \(childName) is not planted")
            continue
          }
          element.attributes.append((childName, Self.formField(childName, member).slot))
          continue
        }
        var child: XMLElementTemplate
        if case .array(let items) = member {
          guard let first = items.first else { continue }
          let itemSchema = propertySchema.flatMap { itemsSchema($0) }
          let itemName = xmlInfo(itemSchema, at: propertyPointer + "/items").name ?? childName
          let item = xmlElement(itemName, first, schema: itemSchema, at: propertyPointer + "/items")
          if info.wrapped {
            child = XMLElementTemplate(name: childName)
            child.children = [item]
          } else {
            child = item
          }
        } else {
          child = xmlElement(childName, member, schema: propertySchema, at: propertyPointer)
        }
        guard taken.insert(child.name).inserted else {
          collector.skip(
            propertyPointer,
            "a second XML element named \(child.name) under \(name) is not planted (its path would be ambiguous)"
          )
          continue
        }
        element.children.append(child)
      }
    }
    return element
  }

  /// What a schema's `xml` object says (after its `$ref`); a namespace or prefix is reported, as
  /// the planted body does not write it.
  private mutating func xmlInfo(_ schema: JSONValue?, at pointer: String) -> (
    name: String?, attribute: Bool, wrapped: Bool
  ) {
    var xml: [String: JSONValue]?
    if case .object(let object)? = schema, case .object(let own) = object["xml"] { xml = own }
    if xml == nil, let schema, let (target, _) = try? resolvedQuietly(schema),
      case .object(let object) = target,
      case .object(let own) = object["xml"]
    {
      xml = own
    }
    guard let xml else { return (nil, false, false) }
    if xml["namespace"] != nil || xml["prefix"] != nil {
      collector.skip(
        pointer + "/xml", "the XML namespace and prefix are not written: elements are planted unqualified")
    }
    let name: String? = if case .string(let n) = xml["name"], Self.isXMLName(n) { n } else { nil }
    let attribute = if case .bool(true) = xml["attribute"] { true } else { false }
    let wrapped = if case .bool(true) = xml["wrapped"] { true } else { false }
    return (name, attribute, wrapped)
  }

  /// The schema of property `key` of `schema`, looking through `$ref`, `allOf` and the first
  /// `oneOf`/`anyOf` branch, without reporting.
  private func propertySchema(_ schema: JSONValue, _ key: String) -> JSONValue? {
    guard let (target, _) = try? resolvedQuietly(schema), case .object(let object) = target else {
      return nil
    }
    if case .object(let properties) = object["properties"], let property = properties[key] { return property }
    if case .array(let branches) = object["allOf"] {
      for branch in branches { if let found = propertySchema(branch, key) { return found } }
    }
    for combinator in ["oneOf", "anyOf"] {
      if case .array(let branches) = object[combinator], let first = branches.first {
        return propertySchema(first, key)
      }
    }
    return nil
  }

  /// The `items` schema of an array schema, after its `$ref`.
  private func itemsSchema(_ schema: JSONValue) -> JSONValue? {
    guard let (target, _) = try? resolvedQuietly(schema), case .object(let object) = target else {
      return nil
    }
    return object["items"]
  }

  /// `Pet` for a schema that is `{"$ref": "#/components/schemas/Pet"}`.
  private static func componentName(_ schema: JSONValue) -> String? {
    guard case .object(let object) = schema, case .string(let ref) = object["$ref"],
      ref.hasPrefix("#/components/schemas/")
    else { return nil }
    let name = JSONPointer.unescape(ref.dropFirst("#/components/schemas/".count))
    return isXMLName(name) ? name : nil
  }

  /// Whether `name` can be written as an XML element or attribute name (a conservative subset).
  static func isXMLName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCII,
      CharacterSet.letters.contains(first) || first == "_"
    else { return false }
    return name.unicodeScalars.allSatisfy {
      $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_-.".unicodeScalars.contains($0))
    }
  }

  /// Whether `mediaType` (lower-cased) is an XML media type.
  static func isXML(_ mediaType: String) -> Bool {
    mediaType.hasPrefix("application/xml") || mediaType.hasPrefix("text/xml")
      || (mediaType.hasPrefix("application/") && mediaType.contains("+xml"))
  }
}

extension JSONTemplate {
  /// Whether the template is a single value (a canary or a literal).
  var isLeaf: Bool {
    switch self {
    case .canary, .literal: true
    case .object, .array: false
    }
  }

  /// Whether the template is a canary.
  var isCanary: Bool {
    if case .canary = self { true } else { false }
  }
}

/// An XML element with canary slots: what a planted XML body looks like before its canaries are
/// minted. Its canaries are minted attributes first, then text, then children, in order.
struct XMLElementTemplate: Sendable {
  var name: String
  var attributes: [(String, PlannedExchange.Slot)] = []
  var text: PlannedExchange.Slot?
  var children: [XMLElementTemplate] = []

  /// The path (``CanaryLocation/BodyPart/xml(_:)``, `order/item/@id`) and shape of every canary.
  func leaves(at parent: String) -> [(String, CanaryShape)] {
    let path = parent.isEmpty ? name : "\(parent)/\(name)"
    var out: [(String, CanaryShape)] = []
    for (attribute, slot) in attributes {
      if case .canary(let shape, _) = slot { out.append(("\(path)/@\(attribute)", shape)) }
    }
    if case .canary(let shape, _)? = text { out.append((path, shape)) }
    for child in children { out += child.leaves(at: path) }
    return out
  }

  var canaryCount: Int { leaves(at: "").count }

  /// The element as XML text, minting each canary in ``leaves(at:)`` order.
  func text(minting mint: (PlannedExchange.Slot) -> String) -> String {
    var out = "<\(name)"
    for (attribute, slot) in attributes {
      out += " \(attribute)=\"\(XMLText.escaped(mint(slot)))\""
    }
    let body = text.map { XMLText.escaped(mint($0)) } ?? ""
    let inner = body + children.map { $0.text(minting: mint) }.joined()
    return inner.isEmpty ? out + "/>" : out + ">" + inner + "</\(name)>"
  }
}

import Foundation

/// Walks an OpenAPI 3.0/3.1 document and turns each operation into a ``PlannedExchange``.
struct OpenAPIReader {
  typealias Object = [String: JSONValue]

  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
  static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]
  static let framingHeaders: Set<String> = [
    "content-length", "content-type", "transfer-encoding", "connection", "content-encoding", "set-cookie",
  ]

  let root: JSONValue
  var collector: ImportCollector
  /// What is left of the current operation's canary and schema-node budgets.
  private var canaryBudget = 0
  private var nodeBudget = 0
  private var budgetReported = false

  init(root: JSONValue, limits: ImportLimits) {
    self.root = root
    self.collector = ImportCollector(limits: limits)
  }

  var limits: ImportLimits { collector.limits }

  mutating func read() throws {
    guard case .object(let document) = root else { throw malformed("", "the document is not a JSON object") }
    if case .string(let version) = document["openapi"] {
      guard version.hasPrefix("3.") else {
        throw malformed("/openapi", "version \(version) is not read; only OpenAPI 3.0 and 3.1 are")
      }
    } else if document["swagger"] != nil {
      throw malformed(
        "/swagger", "Swagger 2.0 is not read; convert it to OpenAPI 3 first (e.g. with swagger2openapi)")
    } else {
      throw malformed("/openapi", "missing: not an OpenAPI document (it needs \"openapi\": \"3.x.y\")")
    }
    if document["webhooks"] != nil {
      collector.skip("/webhooks", "webhooks are not planted: the app receives them, it does not send them")
    }
    guard let pathsValue = document["paths"] else {
      collector.skip("/paths", "the document has no paths, so no operation to plant")
      return
    }
    guard case .object(let paths) = pathsValue else { throw malformed("/paths", "must be an object") }
    let security = document["security"]
    for path in paths.keys.sorted() {
      let pointer = JSONPointer.child("/paths", path)
      guard path.hasPrefix("/") else { throw malformed(pointer, "a path must start with `/`") }
      let item = try resolved(paths[path]!, at: pointer).0
      guard case .object(let itemObject) = item else {
        throw malformed(pointer, "a path item must be an object")
      }
      let shared = try parameters(itemObject["parameters"], at: pointer + "/parameters")
      for method in Self.methods {
        guard let operationValue = itemObject[method] else { continue }
        let operationPointer = pointer + "/" + method
        guard case .object(let operation) = operationValue else {
          throw malformed(operationPointer, "an operation must be an object")
        }
        try read(
          operation, method: method.uppercased(), path: path, shared: shared, security: security,
          at: operationPointer)
      }
    }
  }

  // MARK: Operations

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

  private mutating func parameters(_ value: JSONValue?, at pointer: String) throws -> [Parameter] {
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

  private mutating func read(
    _ operation: Object, method: String, path: String, shared: [Parameter], security rootSecurity: JSONValue?,
    at pointer: String
  ) throws {
    if method == "TRACE" {
      return collector.skip(pointer, "TRACE is not planted: URLSession refuses to send it")
    }
    if case .object(let callbacks) = operation["callbacks"], !callbacks.isEmpty {
      collector.skip(
        pointer + "/callbacks", "callbacks are not planted: the server calls them, the app does not send them"
      )
    }
    canaryBudget = limits.maxCanariesPerKind
    nodeBudget = limits.maxCanariesPerKind * 10
    budgetReported = false
    let own = try parameters(operation["parameters"], at: pointer + "/parameters")
    var merged: [Parameter] = []
    for parameter in shared + own {
      merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
      merged.append(parameter)
    }
    let operationID: String? = if case .string(let id) = operation["operationId"] { id } else { nil }
    var exchange = PlannedExchange(
      kindName: collector.uniqueName(prefix: "api", operationID ?? "\(method) \(path)"),
      summary: "\(method) \(path)" + (operationID.map { " (\($0))" } ?? ""), method: method, path: [])

    // Path.
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

    // Query, header and cookie parameters.
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

    try addSecurity(operation["security"] ?? rootSecurity, to: &exchange, at: pointer)
    try addResponse(operation["responses"], method: method, to: &exchange, at: pointer + "/responses")

    // Request bodies: one kind per supported media type.
    var bodies: [PlannedExchange.Body] = []
    if let bodyValue = operation["requestBody"] {
      let bodyPointer = pointer + "/requestBody"
      if method == "GET" || method == "HEAD" {
        collector.skip(
          bodyPointer, "a request body on \(method) is not planted: URLSession drops or refuses it")
      } else {
        bodies = try requestBodies(bodyValue, at: bodyPointer)
      }
    }
    let origin = "\(method) \(path)"
    if bodies.isEmpty {
      add(exchange, origin: origin, at: pointer)
    }
    for (index, body) in bodies.enumerated() {
      var withBody = exchange
      withBody.body = body
      if index > 0 {
        let suffix: String
        switch body {
        case .json: suffix = "json"
        case .form: suffix = "form"
        case .multipart: suffix = "multipart"
        case .text: suffix = "text"
        case .xml: suffix = "xml"
        }
        withBody.kindName = collector.uniqueName(prefix: exchange.kindName, suffix)
      }
      add(withBody, origin: origin, at: pointer)
    }
  }

  private mutating func add(_ exchange: PlannedExchange, origin: String, at pointer: String) {
    collector.add(exchange, origin: origin, pointer: pointer)
  }

  // MARK: Security

  private mutating func addSecurity(
    _ value: JSONValue?, to exchange: inout PlannedExchange, at pointer: String
  )
    throws
  {
    guard let value else { return }
    guard case .array(let requirements) = value else {
      throw malformed(pointer + "/security", "must be an array")
    }
    var names: [String] = []
    for requirement in requirements {
      if case .object(let schemes) = requirement { names += schemes.keys.sorted() }
    }
    var seen: Set<String> = []
    var authorization: String?
    for name in names where seen.insert(name).inserted {
      guard spend(at: pointer + "/security", canary: true) else { break }
      let schemePointer = JSONPointer.child("/components/securitySchemes", name)
      guard let found = try? resolved(.object(["$ref": .string("#" + schemePointer)]), at: schemePointer),
        case .object(let scheme) = found.0
      else {
        throw malformed(
          pointer + "/security", "security scheme \(name) is not defined in /components/securitySchemes")
      }
      let type: String? = if case .string(let t) = scheme["type"] { t } else { nil }
      func claimAuthorization(_ what: String) -> Bool {
        if let authorization {
          collector.skip(
            schemePointer,
            "\(what) not planted: this request already carries \(authorization) in Authorization")
          return false
        }
        authorization = what
        return true
      }
      switch type {
      case "apiKey":
        guard case .string(let keyName) = scheme["name"], case .string(let location) = scheme["in"] else {
          throw malformed(schemePointer, "an apiKey scheme needs \"name\" and \"in\"")
        }
        let shape = ShapeGuess.forName(keyName) ?? .token
        switch location {
        case "header":
          if keyName.lowercased() == "authorization" {
            if claimAuthorization("API key \(name)") {
              exchange.headers.append(.init(name: keyName, slot: .canary(shape)))
            }
          } else if !exchange.headers.contains(where: { $0.name.lowercased() == keyName.lowercased() }) {
            exchange.headers.append(.init(name: keyName, slot: .canary(shape)))
          }
        case "query":
          if !exchange.query.contains(where: { $0.name == keyName }) {
            exchange.query.append(.init(name: keyName, slot: .canary(shape)))
          }
        case "cookie":
          if !exchange.cookies.contains(where: { $0.name == keyName }) {
            exchange.cookies.append(
              .init(name: keyName, slot: .canary(ShapeGuess.fitting(shape, inPathOrCookie: true))))
          }
        default: throw malformed(schemePointer, "apiKey \"in\" must be header, query or cookie")
        }
      case "http":
        let httpScheme = if case .string(let s) = scheme["scheme"] { s.lowercased() } else { "" }
        if httpScheme == "basic" {
          if claimAuthorization("HTTP Basic \(name)") { exchange.basicAuthorization = true }
        } else if httpScheme == "bearer" {
          if claimAuthorization("bearer \(name)") {
            exchange.headers.append(.init(name: "Authorization", slot: .canary(.jwt, prefix: "Bearer ")))
          }
        } else {
          collector.skip(
            schemePointer, "HTTP scheme `\(httpScheme)` is not planted (only basic and bearer are)")
        }
      case "oauth2", "openIdConnect":
        if claimAuthorization("\(type!) \(name)") {
          exchange.headers.append(.init(name: "Authorization", slot: .canary(.jwt, prefix: "Bearer ")))
        }
      case "mutualTLS":
        collector.skip(
          schemePointer, "mutualTLS is not planted: a client certificate is not part of the HTTP exchange")
      default:
        throw malformed(
          schemePointer, "unknown security scheme type \(type.map { "`\($0)`" } ?? "(missing)")")
      }
    }
  }

  // MARK: Bodies

  private mutating func requestBodies(_ value: JSONValue, at pointer: String) throws -> [PlannedExchange.Body]
  {
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
          let encoding: [String: JSONValue] =
            if case .object(let media) = content[mediaType], case .object(let e) = media["encoding"] {
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
          if !fields.isEmpty { out.append(.form(fields)) }
          continue
        }
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
        if !parts.isEmpty { out.append(.multipart(parts)) }
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

  private static func isBinary(schema: JSONValue, property: String, resolver: OpenAPIReader) -> Bool {
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

  // MARK: Responses

  private mutating func addResponse(
    _ value: JSONValue?, method: String, to exchange: inout PlannedExchange, at pointer: String
  ) throws {
    guard let value else { return }
    guard case .object(let responses) = value else { throw malformed(pointer, "must be an object") }
    let codes = responses.keys.sorted()
    guard let code = codes.first(where: { $0.hasPrefix("2") }) ?? codes.first(where: { $0 == "default" })
    else {
      if !codes.isEmpty {
        collector.skip(
          pointer, "no success response: responses \(codes.joined(separator: ", ")) are not planted")
      }
      return
    }
    let others = codes.filter { $0 != code }
    if !others.isEmpty {
      collector.skip(
        pointer,
        "responses \(others.joined(separator: ", ")) are not planted: the server answers with \(code) only")
    }
    let responsePointer = JSONPointer.child(pointer, code)
    let (responseValue, resolvedPointer) = try resolved(responses[code]!, at: responsePointer)
    guard case .object(let response) = responseValue else {
      if case .null = responseValue { return }
      throw malformed(responsePointer, "a response must be an object")
    }
    if let status = Int(code), (200..<300).contains(status), status != 204 {
      exchange.responseStatus = status
    }
    if case .object(let links) = response["links"], !links.isEmpty {
      collector.skip(
        resolvedPointer + "/links",
        "links are not planted: they describe later requests, not values in this one")
    }
    if case .object(let headers) = response["headers"] {
      for name in headers.keys.sorted() {
        let headerPointer = JSONPointer.child(resolvedPointer + "/headers", name)
        if Self.framingHeaders.contains(name.lowercased()) {
          collector.skip(
            headerPointer, "response header \(name) is not planted: it frames the response or sets cookies")
          continue
        }
        guard Self.isToken(name) else {
          collector.skip(headerPointer, "header name \(name) is not a valid HTTP field name")
          continue
        }
        let (headerValue, _) = try resolved(headers[name]!, at: headerPointer)
        let schema: JSONValue? = if case .object(let header) = headerValue { header["schema"] } else { nil }
        if let shape = try scalarShape(schema, name: name, at: headerPointer) {
          exchange.responseHeaders.append(.init(name: name, slot: .canary(shape)))
        }
      }
    }
    guard case .object(let content) = response["content"] else { return }
    for mediaType in content.keys.sorted() {
      let mediaPointer = JSONPointer.child(resolvedPointer + "/content", mediaType)
      let lower = mediaType.lowercased()
      let isJSON =
        lower.hasPrefix("application/json") || (lower.hasPrefix("application/") && lower.contains("+json"))
      guard isJSON, exchange.responseBody == nil, method != "HEAD" else {
        collector.skip(
          mediaPointer,
          method == "HEAD"
            ? "a HEAD response has no body"
            : isJSON
              ? "only the first JSON media type of a response is served"
              : "response media type \(mediaType) is not planted (JSON is)"
        )
        continue
      }
      guard case .object(let media) = content[mediaType], let schema = media["schema"] else { continue }
      exchange.responseBody = try template(
        schema, name: nil, at: mediaPointer + "/schema", depth: 0, refs: [])
    }
    if exchange.responseBody != nil, exchange.responseStatus == 204 { exchange.responseStatus = 200 }
  }

  // MARK: Schemas

  /// The shape of a scalar parameter or header, or nil (reported) when it cannot hold one.
  private mutating func scalarShape(_ schema: JSONValue?, name: String, at pointer: String) throws
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

  private mutating func spend(at pointer: String, canary: Bool) -> Bool {
    nodeBudget -= 1
    if canary { canaryBudget -= 1 }
    if nodeBudget >= 0 && canaryBudget >= 0 { return true }
    if !budgetReported {
      budgetReported = true
      collector.skip(
        pointer,
        "the operation's schemas are larger than \(limits.maxCanariesPerKind) canaries (ImportLimits.maxCanariesPerKind): the rest is not planted"
      )
    }
    return false
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

  // MARK: References

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

  // MARK: Helpers

  static func isToken(_ name: String) -> Bool {
    !name.isEmpty
      && name.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (CharacterSet.alphanumerics.contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
      }
  }

  private func malformed(_ pointer: String, _ detail: String) -> KindImportError {
    .malformed(pointer: pointer, detail)
  }
}

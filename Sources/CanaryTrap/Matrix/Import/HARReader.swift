import Foundation

/// Walks a HAR 1.2 archive and turns each entry into a ``PlannedExchange``.
struct HARReader {
  typealias Object = [String: JSONValue]

  /// Request headers kept out of the plan: hop-by-hop, framing, `Host`, HTTP/2 pseudo-headers,
  /// and the ones the plan writes itself (`Cookie`, `Content-Type`).
  static let unplantedRequestHeaders: Set<String> = [
    "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer",
    "content-length", "cookie", "content-type", "expect",
  ]
  /// Request headers kept as recorded: they describe what the client accepts, not who it is.
  static let literalRequestHeaders: Set<String> = ["accept", "accept-encoding", "accept-language"]
  static let unplantedResponseHeaders: Set<String> = [
    "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "content-type",
    "set-cookie", "location", "date", "trailer", "upgrade",
  ]

  var collector: ImportCollector
  private var canaryBudget = 0
  private var budgetReported = false
  private var limits: ImportLimits { collector.limits }

  init(collector: ImportCollector) { self.collector = collector }

  mutating func read(_ root: JSONValue) throws {
    guard case .object(let document) = root, case .object(let log) = document["log"] else {
      throw KindImportError.malformed(
        pointer: "/log", "missing: not a HAR archive (it needs a \"log\" object)")
    }
    guard case .array(let entries) = log["entries"] else {
      throw KindImportError.malformed(pointer: "/log/entries", "missing or not an array")
    }
    for (index, entry) in entries.enumerated() {
      let pointer = "/log/entries/\(index)"
      guard case .object(let entryObject) = entry, case .object(let request) = entryObject["request"] else {
        throw KindImportError.malformed(pointer: pointer + "/request", "missing or not an object")
      }
      var response: Object = [:]
      if case .object(let recorded) = entryObject["response"] { response = recorded }
      try read(request: request, response: response, index: index, at: pointer)
    }
  }

  private static func string(_ value: JSONValue?) -> String? {
    if case .string(let text) = value { return text }
    return nil
  }

  private static func pairs(_ value: JSONValue?) -> [(String, String, Object)] {
    guard case .array(let items) = value else { return [] }
    return items.compactMap { item in
      guard case .object(let object) = item, let name = string(object["name"]) else { return nil }
      return (name, string(object["value"]) ?? "", object)
    }
  }

  private mutating func slot(_ value: String, name: String?, pathOrCookie: Bool = false)
    -> PlannedExchange.Slot
  {
    guard !value.isEmpty else { return .literal("") }
    guard spend() else { return .literal(value) }
    return .canary(ShapeGuess.fitting(ShapeGuess.forValue(value, name: name), inPathOrCookie: pathOrCookie))
  }

  private mutating func spend() -> Bool {
    canaryBudget -= 1
    return canaryBudget >= 0
  }

  private mutating func read(request: Object, response: Object, index: Int, at pointer: String) throws {
    canaryBudget = limits.maxCanariesPerKind
    let requestPointer = pointer + "/request"
    guard let method = Self.string(request["method"]), OpenAPIReader.isToken(method) else {
      throw KindImportError.malformed(pointer: requestPointer + "/method", "missing or not an HTTP method")
    }
    guard let urlText = Self.string(request["url"]), let url = URLComponents(string: urlText) else {
      throw KindImportError.malformed(pointer: requestPointer + "/url", "missing or not a URL")
    }
    guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
      return collector.skip(
        requestPointer + "/url", "a \(url.scheme ?? "scheme-less") URL is not replayed (only http and https)")
    }
    if method.uppercased() == "TRACE" || method.uppercased() == "CONNECT" {
      return collector.skip(
        requestPointer + "/method", "\(method) is not replayed: URLSession refuses to send it")
    }
    let lastSegment = url.path.split(separator: "/").last.map(String.init) ?? "root"
    var exchange = PlannedExchange(
      kindName: collector.uniqueName(prefix: "har", "\(index + 1) \(method) \(lastSegment)"),
      summary: "\(method) \(url.path.isEmpty ? "/" : url.path) (HAR entry \(index + 1))",
      method: method.uppercased(),
      path: url.percentEncodedPath.split(separator: "/").map {
        .literal($0.removingPercentEncoding ?? String($0))
      })

    // Query: the recorded list, else the URL's.
    var query = Self.pairs(request["queryString"]).map { ($0.0, $0.1) }
    if query.isEmpty { query = (url.queryItems ?? []).map { ($0.name, $0.value ?? "") } }
    for (name, value) in query { exchange.query.append(.init(name: name, slot: slot(value, name: name))) }

    // Headers.
    var cookieHeader: String?
    for (offset, header) in Self.pairs(request["headers"]).enumerated() {
      let (name, value, _) = header
      let lower = name.lowercased()
      let headerPointer = "\(requestPointer)/headers/\(offset)"
      if lower == "cookie" { cookieHeader = value }
      if name.hasPrefix(":") {
        collector.skip(headerPointer, "HTTP/2 pseudo-header \(name) is not a header the app sets")
      } else if Self.unplantedRequestHeaders.contains(lower) {
        continue  // Written by the transport or by the plan itself.
      } else if !OpenAPIReader.isToken(name) {
        collector.skip(headerPointer, "header name \(name) is not a valid HTTP field name")
      } else if Self.literalRequestHeaders.contains(lower) {
        exchange.headers.append(.init(name: name, slot: .literal(value)))
      } else if lower == "authorization", value.lowercased().hasPrefix("basic ") {
        let user = spend()
        let password = spend()
        exchange.basicAuthorization = user && password
        if !exchange.basicAuthorization { exchange.headers.append(.init(name: name, slot: .literal(value))) }
      } else if lower == "authorization" || lower == "proxy-authorization",
        let space = value.firstIndex(of: " ")
      {
        let scheme = String(value[...space])
        let credential = String(value[value.index(after: space)...])
        if case .canary(let shape, _) = slot(credential, name: name) {
          exchange.headers.append(.init(name: name, slot: .canary(shape, prefix: scheme)))
        } else {
          exchange.headers.append(.init(name: name, slot: .literal(value)))
        }
      } else {
        exchange.headers.append(.init(name: name, slot: slot(value, name: name)))
      }
    }

    // Cookies: the recorded list, else the Cookie header.
    var cookies = Self.pairs(request["cookies"]).map { ($0.0, $0.1) }
    if cookies.isEmpty, let cookieHeader {
      cookies = cookieHeader.split(separator: ";").compactMap { pair in
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
        return (name, parts.count > 1 ? String(parts[1]) : "")
      }
    }
    for (offset, (name, value)) in cookies.enumerated() {
      if OpenAPIReader.isToken(name) {
        exchange.cookies.append(.init(name: name, slot: slot(value, name: name, pathOrCookie: true)))
      } else {
        collector.skip(
          "\(requestPointer)/cookies/\(offset)", "cookie name \(name) is not a valid cookie name")
      }
    }

    // Body.
    if case .object(let postData) = request["postData"] {
      exchange.body = try body(postData, method: exchange.method, at: requestPointer + "/postData")
    }

    readResponse(response, method: exchange.method, into: &exchange, at: pointer + "/response")
    if canaryBudget < 0 {
      collector.skip(
        pointer,
        "the entry holds more than \(limits.maxCanariesPerKind) values (ImportLimits.maxCanariesPerKind): the rest are replayed as recorded"
      )
    }
    collector.add(exchange, origin: "\(method) \(urlText)", pointer: pointer)
  }

  private mutating func body(_ postData: Object, method: String, at pointer: String) throws -> PlannedExchange
    .Body?
  {
    let mimeType = Self.string(postData["mimeType"]) ?? ""
    let lower = mimeType.lowercased()
    let text = Self.string(postData["text"]) ?? ""
    let params = Self.pairs(postData["params"])
    if method == "GET" || method == "HEAD" {
      if !text.isEmpty || !params.isEmpty {
        collector.skip(pointer, "a request body on \(method) is not replayed: URLSession drops or refuses it")
      }
      return nil
    }
    if lower.hasPrefix("application/x-www-form-urlencoded") {
      let fields =
        params.isEmpty
        ? text.split(separator: "&").map { pair -> (String, String) in
          let parts = pair.split(separator: "=", maxSplits: 1).map {
            $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
          }
          return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        }
        : params.map { ($0.0, $0.1) }
      return .form(fields.map { .init(name: $0.0, slot: slot($0.1, name: $0.0)) })
    }
    if lower.hasPrefix("multipart/form-data") {
      var parts: [PlannedExchange.Part] = []
      if !params.isEmpty {
        for (name, value, object) in params {
          let isFile = Self.string(object["fileName"]) != nil
          parts.append(
            .init(
              name: name, slot: slot(value.isEmpty && isFile ? "file" : value, name: name), isFile: isFile))
        }
      } else {
        for part in MultipartBody(contentType: mimeType, body: Data(text.utf8))?.parts ?? [] {
          guard let name = part.name else { continue }
          parts.append(
            .init(
              name: name, slot: slot(String(decoding: part.body, as: UTF8.self), name: name),
              isFile: part.filename != nil))
        }
      }
      if parts.isEmpty, !text.isEmpty {
        collector.skip(pointer, "the multipart body could not be split into parts")
      }
      return parts.isEmpty ? nil : .multipart(parts)
    }
    if Self.isJSON(lower) || (mimeType.isEmpty && text.hasPrefix("{")) {
      guard let value = try? ImportCollector.decode(Data(text.utf8), limits: limits, what: "recorded body"),
        let template = template(value, name: nil, at: pointer + "/text", depth: 0)
      else {
        if !text.isEmpty {
          collector.skip(pointer + "/text", "the JSON body could not be read, so it is not replayed")
        }
        return nil
      }
      return .json(template, contentType: mimeType.isEmpty ? "application/json" : mimeType)
    }
    if lower.hasPrefix("text/") {
      return text.isEmpty ? nil : .text(slot(text, name: nil), contentType: mimeType)
    }
    if !text.isEmpty || !params.isEmpty {
      collector.skip(
        pointer,
        "a \(mimeType.isEmpty ? "untyped" : mimeType) body is not replayed (JSON, form, multipart and text are)"
      )
    }
    return nil
  }

  private static func isJSON(_ lower: String) -> Bool {
    lower.hasPrefix("application/json") || (lower.hasPrefix("application/") && lower.contains("+json"))
  }

  private mutating func readResponse(
    _ response: Object, method: String, into exchange: inout PlannedExchange, at pointer: String
  ) {
    if case .number(let status) = response["status"], status.isFinite,
      let code = Int(exactly: status.rounded()),
      (200..<300).contains(code) || (400..<600).contains(code), code != 204
    {
      exchange.responseStatus = code
    }
    for (offset, header) in Self.pairs(response["headers"]).enumerated() {
      let (name, value, _) = header
      let lower = name.lowercased()
      if Self.unplantedResponseHeaders.contains(lower) || name.hasPrefix(":") {
        if lower == "set-cookie" || lower == "location" {
          collector.skip(
            "\(pointer)/headers/\(offset)",
            "response header \(name) is not replayed: \(lower == "location" ? "a redirect would be followed" : "cookies the app stores would cross into other kinds")"
          )
        }
        continue
      }
      guard OpenAPIReader.isToken(name) else { continue }
      exchange.responseHeaders.append(.init(name: name, slot: slot(value, name: name)))
    }
    guard case .object(let content) = response["content"], let text = Self.string(content["text"]),
      !text.isEmpty
    else { return }
    let mimeType = Self.string(content["mimeType"]) ?? ""
    var body = Data(text.utf8)
    if Self.string(content["encoding"])?.lowercased() == "base64" {
      guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
        return collector.skip(
          pointer + "/content", "the base64 body could not be decoded, so it is not served")
      }
      body = decoded
    }
    guard Self.isJSON(mimeType.lowercased()), method != "HEAD" else {
      return collector.skip(
        pointer + "/content",
        "a \(mimeType.isEmpty ? "untyped" : mimeType) response body is not served (JSON is)")
    }
    guard let value = try? ImportCollector.decode(body, limits: limits, what: "recorded response") else {
      return collector.skip(
        pointer + "/content", "the JSON response body could not be read, so it is not served")
    }
    exchange.responseBody = template(value, name: nil, at: pointer + "/content/text", depth: 0)
  }

  /// The recorded JSON `value` with every string and number replaced by a canary.
  private mutating func template(_ value: JSONValue, name: String?, at pointer: String, depth: Int)
    -> JSONTemplate?
  {
    if depth > limits.maxSchemaDepth {
      collector.skip(
        pointer,
        "deeper than \(limits.maxSchemaDepth) levels (ImportLimits.maxSchemaDepth): replayed as recorded")
      return .literal(value)
    }
    switch value {
    case .object(let members):
      return .object(
        members.keys.sorted().map { key in
          guard JSONTemplate.isAddressable(key) else {
            collector.skip(
              pointer,
              "key `\(key)` holds `.`, `[` or `]`, which a JSON path cannot address: replayed as recorded")
            return (key, .literal(members[key]!))
          }
          return (
            key, template(members[key]!, name: key, at: pointer, depth: depth + 1) ?? .literal(members[key]!)
          )
        })
    case .array(let items):
      return .array(items.map { template($0, name: name, at: pointer, depth: depth + 1) ?? .literal($0) })
    case .string(let text):
      if case .canary(let shape, _) = slot(text, name: name) { return .canary(shape) }
      return .literal(value)
    case .number(let number):
      guard spend() else { return .literal(value) }
      _ = number
      return .canary(.number)
    case .bool, .null:
      return .literal(value)
    }
  }
}

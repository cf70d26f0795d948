import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One exchange an imported document describes, with a slot for every value the kind plants:
/// the shared form that OpenAPI operations and HAR entries are turned into before they become
/// ``RequestKind``s.
struct PlannedExchange: Sendable {
  /// A value of the exchange: a canary of a shape (after a fixed prefix such as `Bearer `), or a
  /// value kept as recorded.
  enum Slot: Sendable {
    case canary(CanaryShape, prefix: String)
    case literal(String)

    static func canary(_ shape: CanaryShape) -> Slot { .canary(shape, prefix: "") }
  }

  /// A named value: a query item, header, cookie or form field.
  struct Field: Sendable {
    var name: String
    var slot: Slot
  }

  /// A multipart part: a text field, or a file whose content is the slot.
  struct Part: Sendable {
    var name: String
    var slot: Slot
    var isFile: Bool
  }

  /// A request body.
  enum Body: Sendable {
    case json(JSONTemplate, contentType: String)
    case form([Field])
    case multipart([Part])
    case text(Slot, contentType: String)
    case xml(XMLElementTemplate, contentType: String)
  }

  var kindName: String
  var summary: String
  var method: String
  /// The path after the route, one entry per segment.
  var path: [Slot]
  var query: [Field] = []
  var headers: [Field] = []
  var cookies: [Field] = []
  /// Plants `Authorization: Basic` with a user and a password canary.
  var basicAuthorization = false
  var body: Body?
  var responseStatus = 200
  var responseHeaders: [Field] = []
  var responseBody: JSONTemplate?

  /// How many canaries the exchange plants.
  var canaryCount: Int {
    func count(_ slots: [Slot]) -> Int { slots.filter { if case .canary = $0 { true } else { false } }.count }
    var total =
      count(path) + count(query.map(\.slot)) + count(headers.map(\.slot)) + count(cookies.map(\.slot))
    total += basicAuthorization ? 2 : 0
    total += count(responseHeaders.map(\.slot)) + (responseBody?.canaryCount ?? 0)
    switch body {
    case .json(let template, _): total += template.canaryCount
    case .form(let fields): total += count(fields.map(\.slot))
    case .multipart(let parts): total += count(parts.map(\.slot))
    case .text(let slot, _): total += count([slot])
    case .xml(let element, _): total += element.canaryCount
    case nil: break
    }
    return total
  }

  /// Every location the exchange plants, with its shape, in planting order.
  var locations: [(CanaryLocation, CanaryShape)] {
    var out: [(CanaryLocation, CanaryShape)] = []
    for (index, slot) in path.enumerated() {
      if case .canary(let shape, _) = slot {
        out.append((.requestURL(.path(KindPlanter.firstDataSegment + index)), shape))
      }
    }
    func add(_ fields: [Field], _ location: (String) -> CanaryLocation) {
      for field in fields {
        if case .canary(let shape, _) = field.slot { out.append((location(field.name), shape)) }
      }
    }
    add(query) { .requestURL(.query($0)) }
    add(headers) { .requestHeader($0) }
    add(cookies) { .requestCookie($0) }
    if basicAuthorization {
      out.append((.requestCredential(header: "Authorization", .user), .email))
      out.append((.requestCredential(header: "Authorization", .password), .password))
    }
    switch body {
    case .json(let template, _):
      out += template.leaves(at: "").map { (.requestBody(.json($0.0)), $0.1) }
    case .form(let fields): add(fields) { .requestBody(.form($0)) }
    case .multipart(let parts):
      for part in parts {
        if case .canary(let shape, _) = part.slot {
          out.append(
            (.requestBody(part.isFile ? .multipartFile(part.name) : .multipartField(part.name)), shape))
        }
      }
    case .text(let slot, _):
      if case .canary(let shape, _) = slot { out.append((.requestBody(.text), shape)) }
    case .xml(let element, _):
      out += element.leaves(at: "").map { (.requestBody(.xml($0.0)), $0.1) }
    case nil: break
    }
    add(responseHeaders) { .responseHeader($0) }
    if let responseBody { out += responseBody.leaves(at: "").map { (.responseBody(.json($0.0)), $0.1) } }
    return out
  }
}

/// A JSON value with canary slots: what a planted JSON body looks like before its canaries are
/// minted.
indirect enum JSONTemplate: Sendable {
  case object([(String, JSONTemplate)])
  case array([JSONTemplate])
  case canary(CanaryShape)
  case literal(JSONValue)

  var canaryCount: Int {
    switch self {
    case .object(let members): members.reduce(0) { $0 + $1.1.canaryCount }
    case .array(let items): items.reduce(0) { $0 + $1.canaryCount }
    case .canary: 1
    case .literal: 0
    }
  }

  /// The dotted path (``CanaryLocation/BodyPart/json(_:)``) and shape of every canary.
  func leaves(at path: String) -> [(String, CanaryShape)] {
    switch self {
    case .object(let members):
      members.flatMap { $0.1.leaves(at: path.isEmpty ? $0.0 : "\(path).\($0.0)") }
    case .array(let items):
      items.enumerated().flatMap { $0.element.leaves(at: "\(path)[\($0.offset)]") }
    case .canary(let shape): [(path, shape)]
    case .literal: []
    }
  }

  /// Whether `key` can be addressed by a dotted JSON path.
  static func isAddressable(_ key: String) -> Bool {
    !key.isEmpty && !key.contains(where: { $0 == "." || $0 == "[" || $0 == "]" })
  }
}

extension RequestKind {
  /// The kind that sends `exchange`, minting a canary for each of its slots.
  init(planned exchange: PlannedExchange) {
    self.init(name: exchange.kindName, summary: exchange.summary) { p in
      let locations = exchange.locations
      var next = 0
      func mint(_ slot: PlannedExchange.Slot) -> String {
        switch slot {
        case .literal(let value): return value
        case .canary(_, let prefix):
          let (location, shape) = locations[next]
          next += 1
          return prefix + p.canary(shape, at: location)
        }
      }
      let segments = exchange.path.map(mint)
      let path = p.path(segments)
      let query = exchange.query.map { ($0.name, mint($0.slot)) }
      var headers = exchange.headers.map { ($0.name, mint($0.slot)) }
      let cookies = exchange.cookies.map { "\($0.name)=\(mint($0.slot))" }
      if !cookies.isEmpty { headers.append(("Cookie", cookies.joined(separator: "; "))) }
      if exchange.basicAuthorization {
        let user = mint(.canary(.email))
        let password = mint(.canary(.password))
        headers.append(("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()))
      }
      var body: Data?
      switch exchange.body {
      case .json(let template, let contentType):
        body = Data(JSONTemplateWriter.text(of: template, minting: mint).utf8)
        headers.append(("Content-Type", contentType))
      case .form(let fields):
        body = Data(RequestKind.formEncoded(fields.map { ($0.name, mint($0.slot)) }).utf8)
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
      case .multipart(let parts):
        let boundary = "canary-boundary-\(UUID().uuidString)"
        var text = ""
        for part in parts {
          let value = mint(part.slot)
          let filename = part.isFile ? "; filename=\"\(part.name).bin\"" : ""
          let type = part.isFile ? "Content-Type: application/octet-stream\r\n" : ""
          text +=
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(filename)\r\n\(type)\r\n\(value)\r\n"
        }
        text += "--\(boundary)--\r\n"
        body = Data(text.utf8)
        headers.append(("Content-Type", "multipart/form-data; boundary=\(boundary)"))
      case .text(let slot, let contentType):
        body = Data(mint(slot).utf8)
        headers.append(("Content-Type", contentType))
      case .xml(let element, let contentType):
        body = Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + element.text(minting: mint)).utf8)
        headers.append(("Content-Type", contentType))
      case nil: break
      }
      let responseHeaders = exchange.responseHeaders.map { ($0.name, mint($0.slot)) }
      let responseBody = exchange.responseBody.map { JSONTemplateWriter.text(of: $0, minting: mint) }
      if !responseHeaders.isEmpty || responseBody != nil {
        var response =
          responseBody.map { ServerResponse.json($0, status: exchange.responseStatus) }
          ?? .status(exchange.responseStatus)
        for (name, value) in responseHeaders { response = response.header(name, value) }
        p.server.on(HTTPMethod(rawValue: exchange.method), path, respond: response)
      }
      return [p.request(exchange.method, p.url(path, query: query), headers: headers, body: body)]
    }
  }
}

/// Writes a ``JSONTemplate`` as JSON text, minting each canary in order.
enum JSONTemplateWriter {
  static func text(of template: JSONTemplate, minting mint: (PlannedExchange.Slot) -> String) -> String {
    var out = ""
    write(template, into: &out, minting: mint)
    return out
  }

  private static func write(
    _ template: JSONTemplate, into out: inout String, minting mint: (PlannedExchange.Slot) -> String
  ) {
    switch template {
    case .object(let members):
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        out += quoted(member.0) + ":"
        write(member.1, into: &out, minting: mint)
      }
      out += "}"
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        write(item, into: &out, minting: mint)
      }
      out += "]"
    case .canary(let shape): out += quoted(mint(.canary(shape)))
    case .literal(let value): out += literal(value)
    }
  }

  private static func literal(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number):
      guard number.isFinite else { return "0" }
      return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    case .string(let string): return quoted(string)
    case .array(let items): return "[" + items.map(literal).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + literal($0.value) }
        .joined(separator: ",") + "}"
    }
  }

  static func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

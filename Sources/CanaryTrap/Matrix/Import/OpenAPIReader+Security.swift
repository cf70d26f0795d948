import Foundation

/// Security requirements planted as the credentials they name: API keys, HTTP basic and bearer,
/// OAuth 2 and OpenID Connect tokens; one scheme only may use `Authorization`.
extension OpenAPIReader {
  /// Plants the credentials of the schemes `value` (the operation's or the document's security)
  /// requires.
  mutating func addSecurity(
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
}

import Foundation

/// The served response: the first success status, its headers and its first JSON body.
extension OpenAPIReader {
  /// Plants the first success (or default) response of `value` in `exchange`.
  mutating func addResponse(
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
}

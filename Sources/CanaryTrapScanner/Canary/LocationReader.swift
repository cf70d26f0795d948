/// Reads the string form of a ``CanaryLocation`` scalar by scalar.
struct LocationReader {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
  }

  var isAtEnd: Bool { index == scalars.count }

  mutating func readLocation() -> CanaryLocation? {
    if take("failure") {
      guard let name = readBracketed(), let failure = ExchangeFailure(rawValue: name), take("."),
        let location = readLocation()
      else { return nil }
      if case .failedExchange = location { return nil }
      return .failedExchange(failure, location)
    }
    if take("request.url.") { return readURLPart().map(CanaryLocation.requestURL) }
    if take("request.header") {
      guard let name = readBracketed() else { return nil }
      if take(".basic.") {
        if take("user") { return .requestCredential(header: name, .user) }
        if take("password") { return .requestCredential(header: name, .password) }
        return nil
      }
      return .requestHeader(name)
    }
    if take("request.cookie") { return readBracketed().map(CanaryLocation.requestCookie) }
    if take("request.body.") { return readBodyPart().map(CanaryLocation.requestBody) }
    if take("response.location.") { return readURLPart().map(CanaryLocation.responseLocation) }
    if take("response.informational") {
      guard let status = readBracketed().flatMap({ Int($0) }), (100...199).contains(status), take(".header"),
        let name = readBracketed()
      else { return nil }
      return .informationalHeader(status: status, name)
    }
    if take("response.trailer") { return readBracketed().map(CanaryLocation.responseTrailer) }
    if take("response.header") { return readBracketed().map(CanaryLocation.responseHeader) }
    if take("response.cookie") { return readBracketed().map(CanaryLocation.responseCookie) }
    if take("response.body.") { return readBodyPart().map(CanaryLocation.responseBody) }
    if take("final.url.") { return readURLPart().map(CanaryLocation.finalURL) }
    if take("websocket.") { return readWebSocketPart().map(CanaryLocation.webSocket) }
    if take("client.held") { return readBracketed().map(CanaryLocation.clientHeld) }
    if take("redirect") {
      guard let hop = readBracketed().flatMap({ Int($0) }), hop >= 0, take(".location.") else {
        return nil
      }
      return readURLPart().map { CanaryLocation.redirect(hop: hop, $0) }
    }
    return nil
  }

  private mutating func readURLPart() -> CanaryLocation.URLPart? {
    if take("user") { return .user }
    if take("password") { return .password }
    if take("fragment") { return .fragment }
    if take("pathParam") { return readBracketed().map { .pathParameter($0) } }
    if take("path") {
      guard let index = readBracketed().flatMap({ Int($0) }), index >= 0 else { return nil }
      return .path(index)
    }
    if take("query") { return readBracketed().map { .query($0) } }
    return nil
  }

  private mutating func readBodyPart() -> CanaryLocation.BodyPart? {
    if take("json") { return readBracketed().map { .json($0) } }
    if take("form") { return readBracketed().map { .form($0) } }
    if take("xml") { return readBracketed().map { .xml($0) } }
    if take("text") { return .text }
    if take("event") {
      guard let index = readBracketed().flatMap({ Int($0) }), index >= 1, take("."),
        let field = [CanaryLocation.EventField.data, .id, .event].first(where: { take($0.rawValue) })
      else { return nil }
      return .event(index, field)
    }
    if take("multipart") {
      guard let name = readBracketed() else { return nil }
      if take(".filename") { return .multipartFilename(name) }
      if take(".file") { return .multipartFile(name) }
      return .multipartField(name)
    }
    return nil
  }

  private mutating func readWebSocketPart() -> CanaryLocation.WebSocketPart? {
    let client: Bool
    if take("client") {
      client = true
    } else if take("server") {
      client = false
    } else {
      return nil
    }
    if take(".close.reason") { return client ? .clientCloseReason : .serverCloseReason }
    guard let index = readBracketed().flatMap({ Int($0) }), index >= 1, take("."),
      let type = [CanaryLocation.WebSocketMessageType.text, .binary].first(where: { take($0.rawValue) })
    else { return nil }
    return client ? .clientMessage(index, type) : .serverMessage(index, type)
  }

  /// Reads `[name]`, undoing the `\\` and `\]` escapes.
  private mutating func readBracketed() -> String? {
    guard take("[") else { return nil }
    var name = String.UnicodeScalarView()
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if scalar == "]" { return String(name) }
      if scalar == "\\" {
        guard index < scalars.count else { return nil }
        name.append(scalars[index])
        index += 1
      } else {
        name.append(scalar)
      }
    }
    return nil
  }

  private mutating func take(_ literal: String) -> Bool {
    let expected = Array(literal.unicodeScalars)
    guard index + expected.count <= scalars.count,
      Array(scalars[index..<index + expected.count]) == expected
    else { return false }
    index += expected.count
    return true
  }
}

extension CanaryLocation: CustomStringConvertible, LosslessStringConvertible {
  /// The stable string form used in manifests and reports.
  public var description: String {
    switch self {
    case .requestURL(let part): "request.url.\(part)"
    case .requestHeader(let name): "request.header[\(escape(name))]"
    case .requestCredential(let header, let part): "request.header[\(escape(header))].basic.\(part.rawValue)"
    case .requestCookie(let name): "request.cookie[\(escape(name))]"
    case .requestBody(let part): "request.body.\(part)"
    case .responseHeader(let name): "response.header[\(escape(name))]"
    case .responseCookie(let name): "response.cookie[\(escape(name))]"
    case .responseBody(let part): "response.body.\(part)"
    case .informationalHeader(let status, let name):
      "response.informational[\(status)].header[\(escape(name))]"
    case .responseTrailer(let name): "response.trailer[\(escape(name))]"
    case .redirect(let hop, let part): "redirect[\(hop)].location.\(part)"
    case .responseLocation(let part): "response.location.\(part)"
    case .clientHeld(let name): "client.held[\(escape(name))]"
    case .finalURL(let part): "final.url.\(part)"
    case .webSocket(let part): "websocket.\(part)"
    case .failedExchange(let failure, let location): "failure[\(failure.rawValue)].\(location)"
    case .custom(let text): text
    }
  }

  /// Parses a location's string form; a string that names no known location becomes ``custom(_:)``.
  public init(_ description: String) {
    // Every known form starts with one of these: anything else is custom without being read.
    let stems = [
      "request.", "response.", "final.url.", "websocket.", "client.held", "redirect", "failure[",
    ]
    guard stems.contains(where: { description.utf8.starts(with: $0.utf8) }) else {
      self = .custom(description)
      return
    }
    var reader = LocationReader(description)
    if let parsed = reader.readLocation(), reader.isAtEnd, parsed.description == description {
      self = parsed
    } else {
      self = .custom(description)
    }
  }
}

extension CanaryLocation.URLPart: CustomStringConvertible {
  /// The stable string form, such as `query[sig]`.
  public var description: String {
    switch self {
    case .user: "user"
    case .password: "password"
    case .path(let index): "path[\(index)]"
    case .pathParameter(let name): "pathParam[\(escape(name))]"
    case .query(let name): "query[\(escape(name))]"
    case .fragment: "fragment"
    }
  }
}

extension CanaryLocation.BodyPart: CustomStringConvertible {
  /// The stable string form, such as `multipart[avatar].filename`.
  public var description: String {
    switch self {
    case .json(let path): "json[\(escape(path))]"
    case .form(let name): "form[\(escape(name))]"
    case .multipartField(let name): "multipart[\(escape(name))]"
    case .multipartFile(let name): "multipart[\(escape(name))].file"
    case .multipartFilename(let name): "multipart[\(escape(name))].filename"
    case .text: "text"
    case .xml(let path): "xml[\(escape(path))]"
    case .event(let index, let field): "event[\(index)].\(field.rawValue)"
    }
  }
}

extension CanaryLocation.WebSocketPart: CustomStringConvertible {
  /// The stable string form, such as `client[1].text` or `server.close.reason`.
  public var description: String {
    switch self {
    case .clientMessage(let index, let type): "client[\(index)].\(type.rawValue)"
    case .serverMessage(let index, let type): "server[\(index)].\(type.rawValue)"
    case .clientCloseReason: "client.close.reason"
    case .serverCloseReason: "server.close.reason"
    }
  }
}

/// Escapes `\` and `]` so that a name can sit between brackets.
private func escape(_ name: String) -> String {
  var result = ""
  for scalar in name.unicodeScalars {
    if scalar == "\\" || scalar == "]" { result.unicodeScalars.append("\\") }
    result.unicodeScalars.append(scalar)
  }
  return result
}

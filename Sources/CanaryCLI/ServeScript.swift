import CanaryTrap
import Foundation

/// The scripted exchanges `canary serve` derives from a manifest's response-side canaries.
///
/// Every response carries the `response.header[..]` canaries as headers and the
/// `response.cookie[..]` canaries as `Set-Cookie`. Every non-redirect response has a JSON body
/// holding the `response.body.json[..]` canaries at their paths (and the `response.body.text`
/// canaries under `"text"`), or a plain-text body when there is no JSON canary. `GET /redirect`
/// starts a chain of redirects (302, 301, 303, 307, 308, ...) whose hop *k* `Location` carries
/// the `redirect[k].location.*` canaries; the last hop lands on a final URL carrying the
/// `final.url.*` canaries. A WebSocket handshake to `/websocket` is answered `101` (choosing the
/// first subprotocol offered) and sent the `websocket.server[k].text|binary` canaries as message
/// *k*, then the close handshake with the `websocket.server.close.reason` canary as the reason.
struct ServeScript {
  /// Where the redirect chain starts.
  static let redirectEntry = "/redirect"
  /// The WebSocket endpoint.
  static let webSocketEntry = "/websocket"

  var headers: [(name: String, value: String)] = []
  var cookies: [(name: String, value: String)] = []
  var json: JSONValue?
  var texts: [String] = []
  /// For each hop (1-based), the URL parts planted in its `Location`.
  var redirectParts: [Int: [(CanaryLocation.URLPart, String)]] = [:]
  var finalParts: [(CanaryLocation.URLPart, String)] = []
  /// The server's WebSocket messages by number (1-based): the canary and whether it goes as text.
  var webSocketMessages: [Int: (value: String, text: Bool)] = [:]
  /// The reason of the server's WebSocket close frame.
  var webSocketCloseReason = "canary serve"
  /// Response-side locations `serve` cannot plant, reported on standard error.
  var unsupported: [String] = []

  init(canaries: [Canary]) {
    for canary in canaries where !canary.location.isRequestSide {
      switch canary.location {
      case .responseHeader(let name):
        if ["content-length", "transfer-encoding", "connection"].contains(name.lowercased()) {
          unsupported.append(canary.location.description)
        } else {
          headers.append((name, canary.value))
        }
      case .responseCookie(let name): cookies.append((name, canary.value))
      case .responseBody(.json(let path)):
        var root = json ?? .object([:])
        JSONPath.set(&root, path: JSONPath.components(path), to: .string(canary.value))
        json = root
      case .responseBody(.text): texts.append(canary.value)
      case .redirect(let hop, let part) where hop >= 1:
        redirectParts[hop, default: []].append((part, canary.value))
      case .finalURL(let part): finalParts.append((part, canary.value))
      case .webSocket(.serverMessage(let number, let type))
      where number >= 1 && webSocketMessages[number] == nil:
        webSocketMessages[number] = (canary.value, type == .text)
      case .webSocket(.serverCloseReason) where canary.value.utf8.count <= 123:
        webSocketCloseReason = canary.value
      default: unsupported.append(canary.location.description)
      }
    }
  }

  /// What the server does on a `/websocket` connection opened by `request`: the first
  /// subprotocol offered, the scripted messages in order (a plain text one where a number has no
  /// canary; one greeting when there are none), and the close reason.
  func webSocketScript(for request: RecordedRequest) -> WebSocketScript {
    let offered = request.headers.values(for: "Sec-WebSocket-Protocol")
      .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    let count = webSocketMessages.keys.max() ?? 0
    var messages: [WebSocketMessage] = (1...max(count, 1)).map { number in
      guard let planted = webSocketMessages[number] else { return .text("canary serve message \(number)") }
      return planted.text ? .text(planted.value) : .binary(Data(planted.value.utf8))
    }
    if count == 0 { messages = [.text("canary serve")] }
    return WebSocketScript(subprotocol: offered.first, messages: messages, closeReason: webSocketCloseReason)
  }

  /// The number of redirect hops (0 when no canary asks for one; 1 when only the final URL does).
  var hopCount: Int {
    max(redirectParts.keys.max() ?? 0, finalParts.isEmpty ? 0 : 1)
  }

  /// The `Location` of hop `hop`: the next hop's URL, or the final URL for the last hop.
  func location(ofHop hop: Int, baseURL: URL) -> String {
    var parts = redirectParts[hop] ?? []
    let isLast = hop == hopCount
    if isLast { parts += finalParts }
    let defaults = isLast ? ["final"] : ["redirect", "hop\(hop + 1)"]
    return ScriptedURL(defaultSegments: defaults, parts: parts).string(baseURL: baseURL)
  }

  /// The path (as sent, without parameters) that each hop's `Location` leads to, mapped to the
  /// hop that answers it (`hopCount + 1` is the final URL).
  func stops(baseURL: URL) -> [String: Int] {
    var stops: [String: Int] = [:]
    for hop in 1...max(hopCount, 1) where hopCount > 0 {
      if let url = URLComponents(string: location(ofHop: hop, baseURL: baseURL)) {
        stops[url.percentEncodedPath] = hop + 1
      }
    }
    return stops
  }

  /// The response for a request at `path`.
  func response(forPath path: String, baseURL: URL) -> ServerResponse {
    if hopCount > 0 {
      let stops = stops(baseURL: baseURL)
      let hop = path == Self.redirectEntry ? 1 : stops[path] ?? stops[Self.withoutParameters(path)]
      if let hop, hop <= hopCount {
        let statuses = [302, 301, 303, 307, 308]
        return decorate(
          .redirect(statuses[(hop - 1) % statuses.count], to: location(ofHop: hop, baseURL: baseURL)))
      }
    }
    return decorate(body())
  }

  private func body() -> ServerResponse {
    guard var root = json else {
      return .text(texts.isEmpty ? "canary serve\n" : texts.joined(separator: "\n"))
    }
    if !texts.isEmpty, case .object(var object) = root {
      object["text"] = .string(texts.joined(separator: " "))
      root = .object(object)
    }
    return .json(object: root)
  }

  private func decorate(_ response: ServerResponse) -> ServerResponse {
    var response = response
    for header in headers { response = response.header(header.name, header.value) }
    for cookie in cookies {
      response = response.header("Set-Cookie", "\(cookie.name)=\(cookie.value); Path=/")
    }
    return response
  }

  private static func withoutParameters(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false)
      .map {
        $0.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
      }
      .joined(separator: "/")
  }
}

/// Builds a URL on the server with canaries planted in chosen parts.
struct ScriptedURL {
  var defaultSegments: [String]
  var parts: [(CanaryLocation.URLPart, String)]

  func string(baseURL: URL) -> String {
    var segments = defaultSegments
    var user: String?
    var password: String?
    var query: [String] = []
    var fragment: String?
    var parameters: [String] = []
    for (part, value) in parts {
      let encoded =
        value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", ";", "?"]))
        ?? value
      switch part {
      case .path(let index):
        while segments.count <= index { segments.append("seg\(segments.count)") }
        segments[index] = encoded
      case .pathParameter(let name): parameters.append(";\(name)=\(encoded)")
      case .query(let name):
        let allowed = CharacterSet.urlQueryAllowed.subtracting(["&", "=", "+"])
        query.append("\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)")
      case .fragment: fragment = encoded
      case .user: user = value.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? value
      case .password:
        password = value.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? value
      }
    }
    if !parameters.isEmpty { segments[segments.count - 1] += parameters.joined() }
    var authority = baseURL.absoluteString.replacingOccurrences(of: "http://", with: "")
    if let user { authority = "\(user)\(password.map { ":\($0)" } ?? "")@\(authority)" }
    var text = "http://\(authority)/\(segments.joined(separator: "/"))"
    if !query.isEmpty { text += "?" + query.joined(separator: "&") }
    if let fragment { text += "#" + fragment }
    return text
  }
}

/// Dotted JSON paths such as `user.tokens[0]`.
enum JSONPath {
  enum Component: Equatable {
    case key(String)
    case index(Int)
  }

  static func components(_ path: String) -> [Component] {
    var result: [Component] = []
    for piece in path.split(separator: ".", omittingEmptySubsequences: false) {
      var rest = Substring(piece)
      if let bracket = rest.firstIndex(of: "[") {
        let key = rest[..<bracket]
        if !key.isEmpty { result.append(.key(String(key))) }
        rest = rest[bracket...]
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]"),
          let index = Int(rest[rest.index(after: rest.startIndex)..<close])
        {
          result.append(.index(index))
          rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { result.append(.key(String(rest))) }
      } else {
        result.append(.key(String(rest)))
      }
    }
    return result
  }

  static func set(_ value: inout JSONValue, path: [Component], to leaf: JSONValue) {
    guard let first = path.first else { return value = leaf }
    let rest = Array(path.dropFirst())
    switch first {
    case .key(let key):
      var object: [String: JSONValue] = [:]
      if case .object(let existing) = value { object = existing }
      var child = object[key] ?? .null
      set(&child, path: rest, to: leaf)
      object[key] = child
      value = .object(object)
    case .index(let index):
      var array: [JSONValue] = []
      if case .array(let existing) = value { array = existing }
      while array.count <= index { array.append(.null) }
      set(&array[index], path: rest, to: leaf)
      value = .array(array)
    }
  }
}

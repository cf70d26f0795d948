import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The DocC article "Built-in request kinds" holds one table row per kind of `RequestKind.all` and
/// `RequestKind.streaming`, and each row is what the kind really does: its requests are sent as
/// built to a started scope over a raw socket, and the row is made from what went out and what the
/// scope's server answered. A new kind fails this test with the row to add.
@Suite struct BuiltInKindsArticleTests {
  static let article = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Sources/CanaryTrap/Documentation.docc/BuiltInKinds.md")

  /// The kinds the article documents.
  static var documented: [RequestKind] { RequestKind.all + RequestKind.streaming }

  /// The article's rows, by kind name: lines `` | `name` | … | ``.
  static func articleRows() throws -> [String: String] {
    let text = try String(contentsOf: article, encoding: .utf8)
    var rows: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let name = line.dropFirst(3).prefix { $0 != "`" }
      rows[String(name)] = String(line)
    }
    return rows
  }

  @Test(arguments: documented.map(\.name))
  func articleRowIsWhatTheKindDoes(kind name: String) async throws {
    let kind = try #require(Self.documented.first { $0.name == name })
    let row = try await KindRow.describe(kind)
    let rows = try Self.articleRows()
    #expect(rows[name] == row, "BuiltInKinds.md needs this row for \(name):\n\(row)")
  }

  @Test func articleHasNoRowForAKindThatIsGone() throws {
    let names = Set(Self.documented.map(\.name))
    #expect(Set(try Self.articleRows().keys).subtracting(names) == [])
  }
}

/// One kind's row: its requests as sent and answered, and the locations it plants.
enum KindRow {
  static func describe(_ kind: RequestKind) async throws -> String {
    let trap = CanaryTrap(title: "kind-\(kind.name)", configuration: .init(captureStandardStreams: false))
    try await trap.start()
    defer { trap.server.stop() }
    let planter = KindPlanter(trap: trap, kindName: kind.name)
    let requests = try kind.plant(planter)
    let context = Context(route: planter.route, tracer: trap.tracer, values: planter.canaries.map(\.value))
    let condensed = RequestKind.sensitiveNames.contains { $0.name == kind.name }
    var exchanges: [String] = []
    for request in requests {
      if let failure = kind.failure {
        // A failing exchange is the request as sent, then what goes wrong (the server's fault,
        // a refusing port, a held answer), not one answer a plain socket could read.
        exchanges.append(try failedExchange(request, failure, context))
      } else {
        exchanges.append(try exchange(request, port: trap.server.port, context, condensed: condensed))
      }
    }
    var locations: [String] = []
    for canary in planter.canaries {
      let location = condensed ? nameTemplate("\(canary.location)") : "`\(canary.location)`"
      if !locations.contains(location) { locations.append(location) }
    }
    return "| `\(kind.name)` | \(exchanges.joined(separator: "; ")) | \(locations.joined(separator: ", ")) |"
  }

  struct Context {
    var route: String
    var tracer: String
    var values: [String]

    /// `url`'s path under the kind's route and its query, canaries written `{canary}`.
    func target(_ url: URL, condensed: Bool) -> String {
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      let path = (components?.percentEncodedPath ?? "").removingPercentEncoding ?? ""
      var shown = path.hasPrefix(route) ? String(path.dropFirst(route.count)) : path
      shown = shown.replacingOccurrences(of: tracer, with: "<tracer>")
      for value in values { shown = shown.replacingOccurrences(of: value, with: "{canary}") }
      guard let items = components?.queryItems, !items.isEmpty else { return shown }
      if condensed { return shown + "?<name>={canary}&…" }
      let query = items.map { item in
        "\(item.name)=\(item.value.map { values.contains($0) ? "{canary}" : $0 } ?? "")"
      }
      return shown + "?" + query.joined(separator: "&")
    }
  }

  /// `` `GET /path` (request type) → status type ``, following redirects on the scope's server.
  static func exchange(_ request: URLRequest, port: UInt16, _ context: Context, condensed: Bool) throws
    -> String
  {
    var url = try #require(request.url)
    var method = request.httpMethod ?? "GET"
    var headers = request.allHTTPHeaderFields ?? [:]
    var body = request.httpBody ?? Data()
    if let user = url.user, let password = url.password {
      // What every URLSession sends for userinfo, at once or after the 401 challenge.
      let credentials =
        "\(user.removingPercentEncoding ?? user):\(password.removingPercentEncoding ?? password)"
      headers["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
    }
    var text = ""
    for hop in 0..<6 {
      let requestType = headers.first { $0.key.lowercased() == "content-type" }.map {
        " (\(mediaType($0.value)))"
      }
      text +=
        (hop == 0 ? "" : " → ")
        + "`\(method) \(context.target(url, condensed: condensed))`\(requestType ?? "")"
      let response = try send(method, url, headers: headers, body: body, port: port)
      text += " → \(response.status)"
      guard (300..<400).contains(response.status), let location = response.location,
        let next = URL(string: location, relativeTo: url)?.absoluteURL
      else {
        text += response.contentType.map { " \(mediaType($0))" } ?? ""
        return text
      }
      if response.status != 307 && response.status != 308 {
        (method, body) = ("GET", Data())
        headers = [:]
      }
      url = next
    }
    return text
  }

  /// `` `POST /path` (request type): what fails ``, for a kind of ``RequestKind/failures``.
  static func failedExchange(_ request: URLRequest, _ failure: ExchangeFailure, _ context: Context) throws
    -> String
  {
    let url = try #require(request.url)
    let requestType = request.value(forHTTPHeaderField: "Content-Type").map { " (\(mediaType($0)))" }
    let timeout = failure == .timedOut ? ", timeout \(Int(request.timeoutInterval)) s" : ""
    return "`\(request.httpMethod ?? "GET") \(context.target(url, condensed: false))`\(requestType ?? "")"
      + "\(timeout): \(failure.summary)"
  }

  /// The media type of a `Content-Type` value, without its parameters.
  static func mediaType(_ value: String) -> String {
    String(value.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
  }

  /// `request.url.query[api_key]` as `request.url.query[<name>]`, `….json[data.key]` as `….json[data.<name>]`.
  static func nameTemplate(_ location: String) -> String {
    guard let open = location.firstIndex(of: "["), location.hasSuffix("]") else { return "`\(location)`" }
    let inside = location[location.index(after: open)...]
    return "`\(location[...open])\(inside.hasPrefix("data.") ? "data." : "")<name>]` for each name"
  }

  struct Answer {
    var status: Int
    var contentType: String?
    var location: String?
  }

  /// Sends the request as is over a raw socket (`Connection: close`) and reads the final answer.
  static func send(_ method: String, _ url: URL, headers: [String: String], body: Data, port: UInt16) throws
    -> Answer
  {
    let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let client = try RawClient(port: port, receiveTimeout: 10)
    client.send(Array(head.utf8) + Array(body))
    var rest = Substring(client.readToEnd().text)
    while let end = rest.range(of: "\r\n\r\n") {
      let lines = rest[..<end.lowerBound].split(separator: "\r\n")
      rest = rest[end.upperBound...]
      let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
      guard status >= 200 else { continue }
      func field(_ name: String) -> String? {
        lines.dropFirst().first { $0.lowercased().hasPrefix(name + ":") }.map {
          $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        }
      }
      return Answer(status: status, contentType: field("content-type"), location: field("location"))
    }
    throw URLError(.badServerResponse)
  }
}

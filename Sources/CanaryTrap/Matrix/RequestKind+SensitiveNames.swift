import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// The kinds planting ``SensitiveName/catalog``: every name in every place it appears in, one
  /// kind per place family. Part of ``all``.
  package static let sensitiveNames: [RequestKind] = kinds(planting: SensitiveName.catalog)

  /// Kinds planting `names`, each in every place it lists: `names-query`, `names-headers`,
  /// `names-cookies`, `names-json` (top level and under `data`), `names-form`,
  /// `names-multipart` and `names-response` (response JSON, top level and under `data`, and
  /// response headers), leaving out the kinds no name needs.
  ///
  /// A location another kind of the same matrix planted before (the matrix plants kinds in
  /// order) is skipped, so every location holds one canary; names equal ignoring case share one
  /// header, the first of them planted.
  public static func kinds(planting names: [SensitiveName]) -> [RequestKind] {
    let names = names
    func having(_ place: SensitiveName.Place) -> [SensitiveName] {
      names.filter { $0.places.contains(place) }
    }
    var kinds: [RequestKind] = []
    if !having(.query).isEmpty { kinds.append(namesInQuery(having(.query))) }
    if !having(.header).isEmpty { kinds.append(namesInHeaders(having(.header))) }
    if !having(.cookie).isEmpty { kinds.append(namesInCookies(having(.cookie))) }
    if !having(.json).isEmpty || !having(.nestedJSON).isEmpty {
      kinds.append(namesInJSON(top: having(.json), nested: having(.nestedJSON)))
    }
    if !having(.form).isEmpty { kinds.append(namesInForm(having(.form))) }
    if !having(.multipart).isEmpty { kinds.append(namesInMultipart(having(.multipart))) }
    if !having(.responseJSON).isEmpty || !having(.responseHeader).isEmpty {
      kinds.append(namesInResponse(json: having(.responseJSON), headers: having(.responseHeader)))
    }
    return kinds
  }

  private static func namesInQuery(_ names: [SensitiveName]) -> RequestKind {
    RequestKind(name: "names-query", summary: "sensitive names as query items") { p in
      let items = p.plantEach(names) { .requestURL(.query($0)) }
      return [p.request("GET", p.url(p.path("lookup"), query: items))]
    }
  }

  private static func namesInHeaders(_ names: [SensitiveName]) -> RequestKind {
    var seen: Set<String> = []
    let distinct = names.filter { seen.insert($0.name.lowercased()).inserted }
    return RequestKind(name: "names-headers", summary: "sensitive names as request headers") { p in
      let headers = p.plantEach(distinct) { .requestHeader($0) }
      return [p.request("GET", p.url(p.path("profile")), headers: headers)]
    }
  }

  private static func namesInCookies(_ names: [SensitiveName]) -> RequestKind {
    RequestKind(name: "names-cookies", summary: "sensitive names as cookies the app sends") { p in
      let cookies = p.plantEach(names) { .requestCookie($0) }
      let header = cookies.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")
      return [p.request("GET", p.url(p.path("dashboard")), headers: [("Cookie", header)])]
    }
  }

  private static func namesInJSON(top: [SensitiveName], nested: [SensitiveName]) -> RequestKind {
    RequestKind(name: "names-json", summary: "sensitive names as JSON keys, top level and nested") { p in
      var body: [String: Any] = [:]
      for (name, value) in p.plantEach(top, at: { .requestBody(.json($0)) }) { body[name] = value }
      var data: [String: String] = [:]
      for (name, value) in p.plantEach(nested, at: { .requestBody(.json("data.\($0)")) }) {
        data[name] = value
      }
      if !data.isEmpty { body["data"] = data }
      return [
        p.request(
          "POST", p.url(p.path("records")), headers: [("Content-Type", "application/json")],
          body: try jsonData(body))
      ]
    }
  }

  private static func namesInForm(_ names: [SensitiveName]) -> RequestKind {
    RequestKind(name: "names-form", summary: "sensitive names as form-urlencoded fields") { p in
      let fields = p.plantEach(names) { .requestBody(.form($0)) }
      return [
        p.request(
          "POST", p.url(p.path("submit")), headers: [("Content-Type", "application/x-www-form-urlencoded")],
          body: Data(formEncoded(fields).utf8))
      ]
    }
  }

  private static func namesInMultipart(_ names: [SensitiveName]) -> RequestKind {
    RequestKind(name: "names-multipart", summary: "sensitive names as multipart/form-data fields") { p in
      let boundary = "canary-boundary-\(UUID().uuidString)"
      var body = ""
      for (name, value) in p.plantEach(names, at: { .requestBody(.multipartField($0)) }) {
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
      }
      body += "--\(boundary)--\r\n"
      return [
        p.request(
          "POST", p.url(p.path("upload")),
          headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")],
          body: Data(body.utf8))
      ]
    }
  }

  private static func namesInResponse(json: [SensitiveName], headers: [SensitiveName]) -> RequestKind {
    var seen: Set<String> = []
    let distinctHeaders = headers.filter { seen.insert($0.name.lowercased()).inserted }
    return RequestKind(
      name: "names-response", summary: "sensitive names in response JSON (top level and nested) and headers"
    ) { p in
      var body: [String: Any] = [:]
      for (name, value) in p.plantEach(json, at: { .responseBody(.json($0)) }) { body[name] = value }
      var data: [String: String] = [:]
      for (name, value) in p.plantEach(json, at: { .responseBody(.json("data.\($0)")) }) {
        data[name] = value
      }
      if !data.isEmpty { body["data"] = data }
      var response = ServerResponse.json(String(decoding: try jsonData(body), as: UTF8.self))
      for (name, value) in p.plantEach(distinctHeaders, at: { .responseHeader($0) }) {
        response = response.header(name, value)
      }
      p.server.on(.get, p.path("session"), respond: response)
      return [p.request("GET", p.url(p.path("session")))]
    }
  }
}

extension KindPlanter {
  /// Mints a canary of each name's shape at `location(name)`, skipping a location the scope
  /// already holds a canary for; returns the planted `(name, value)` pairs in order.
  fileprivate func plantEach(
    _ names: [SensitiveName], at location: (String) -> CanaryLocation
  ) -> [(String, String)] {
    names.compactMap { entry in
      let place = location(entry.name)
      guard trap.canaries.canaries(at: place).isEmpty else { return nil }
      return (entry.name, canary(entry.shape, at: place))
    }
  }
}

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// `GET` with canaries in query items.
  package static let getQuery = RequestKind(name: "get-query", summary: "GET with canaries in query items") {
    p in
    let session = p.canary(.token, at: .requestURL(.query("session")))
    let email = p.canary(.email, at: .requestURL(.query("email")))
    let url = p.url(p.path("search"), query: [("session", session), ("email", email), ("page", "1")])
    return [p.request("GET", url)]
  }

  /// `POST` of a JSON body with nested objects and arrays.
  package static let postJSON = RequestKind(
    name: "post-json", summary: "POST JSON with nested objects and arrays"
  ) {
    p in
    let body: [String: Any] = [
      "user": [
        "email": p.canary(.email, at: .requestBody(.json("user.email"))),
        "password": p.canary(.password, at: .requestBody(.json("user.password"))),
        "profile": ["account": p.canary(.number, at: .requestBody(.json("user.profile.account")))],
      ],
      "tokens": [
        p.canary(.token, at: .requestBody(.json("tokens[0]"))),
        ["refresh": p.canary(.jwt, at: .requestBody(.json("tokens[1].refresh")))],
      ],
    ]
    return [
      p.request(
        "POST", p.url(p.path("users")), headers: [("Content-Type", "application/json")],
        body: try jsonData(body))
    ]
  }

  /// `POST` of a form-urlencoded body.
  package static let postForm = RequestKind(name: "post-form", summary: "POST form-urlencoded fields") { p in
    let fields = [
      ("username", p.canary(.email, at: .requestBody(.form("username")))),
      ("password", p.canary(.password, at: .requestBody(.form("password")))),
      ("remember", "1"),
    ]
    return [
      p.request(
        "POST", p.url(p.path("login")), headers: [("Content-Type", "application/x-www-form-urlencoded")],
        body: Data(formEncoded(fields).utf8))
    ]
  }

  /// A multipart upload with a text field, a file's content and its filename.
  package static let multipartUpload = RequestKind(
    name: "multipart-upload", summary: "multipart/form-data: field value, file content, filename"
  ) { p in
    let boundary = "canary-boundary-\(UUID().uuidString)"
    let note = p.canary(.token, at: .requestBody(.multipartField("note")))
    let filename = p.canary(.token, at: .requestBody(.multipartFilename("avatar")))
    let content = p.canary(.uuid, at: .requestBody(.multipartFile("avatar")))
    var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n\(note)\r\n"
    body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"\(filename)\"\r\n"
    body +=
      "Content-Type: application/octet-stream\r\n\r\nPNG-ish bytes \(content) end\r\n--\(boundary)--\r\n"
    return [
      p.request(
        "POST", p.url(p.path("upload")),
        headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")],
        body: Data(body.utf8))
    ]
  }

  /// `POST` of a plain-text body.
  package static let plainText = RequestKind(name: "plain-text", summary: "POST a text/plain body") { p in
    let text = "recovery note: \(p.canary(.token, at: .requestBody(.text)))\n"
    return [
      p.request(
        "POST", p.url(p.path("notes")), headers: [("Content-Type", "text/plain; charset=utf-8")],
        body: Data(text.utf8))
    ]
  }

  /// `POST` of an XML body whose password needs entities.
  package static let xml = RequestKind(name: "xml", summary: "POST an XML body") { p in
    let user = p.canary(.email, at: .requestBody(.xml("login/user")))
    let password = p.canary(.password, at: .requestBody(.xml("login/password")))
    let xml =
      "<?xml version=\"1.0\"?><login><user>\(XMLText.escaped(user))</user>"
      + "<password>\(XMLText.escaped(password))</password></login>"
    return [
      p.request(
        "POST", p.url(p.path("soap")), headers: [("Content-Type", "application/xml")], body: Data(xml.utf8))
    ]
  }

  /// JSON bytes of `object` with sorted keys.
  static func jsonData(_ object: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  }

  /// `name=value&…` with every byte but letters, digits and `-._*` percent-encoded, spaces as `+`.
  static func formEncoded(_ fields: [(String, String)]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._* ")
    func encode(_ text: String) -> String {
      (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(
        of: " ", with: "+")
    }
    return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
  }
}

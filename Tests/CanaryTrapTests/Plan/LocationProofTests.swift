import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Delivery proof at a canary's location")
struct LocationProofTests {
  private let value = "cnryproofvalue0123456789abc"

  private func status(
    _ location: CanaryLocation, value: String? = nil, received: [RecordedRequest] = [],
    returned: [ObservedResponse] = []
  ) -> CanaryDelivery.Status {
    let canary = Canary(value: value ?? self.value, location: location)
    return DeliveryProof.atLocation.check(
      canary, DeliveryEvidence(received: received, sent: [], returned: returned))
  }

  private func request(_ target: String, headers: HTTPHeaders = [:], body: String = "") -> RecordedRequest {
    RecordedRequest(method: "POST", target: target, headers: headers, body: Data(body.utf8))
  }

  @Test("a request-side canary counts only where it was planted")
  func requestSideNeedsItsOwnLocation() {
    let inQuery = request("/a/b?token=\(value)")
    #expect(status(.requestURL(.query("token")), received: [inQuery]) == .delivered)
    #expect(status(.requestURL(.query("other")), received: [inQuery]) != .delivered)
    #expect(status(.requestHeader("X-Token"), received: [inQuery]) != .delivered)
    let inHeader = request("/a", headers: ["x-api-KEY": "Key \(value)"])
    #expect(status(.requestHeader("X-API-Key"), received: [inHeader]) == .delivered)
    #expect(
      status(.requestHeader("X-Trace"), received: [inHeader])
        == .undelivered(
          reason: "the server never received it in header X-Trace (the transport dropped header X-Trace)"))
    #expect(
      status(.requestHeader("X-Trace")) == .undelivered(reason: "the server received no request at all"))
  }

  @Test("URL parts: path segment, path parameter, userinfo through Basic")
  func urlParts() {
    let target = request("/trace/kind/\(value)/x;session=\(value)/y")
    #expect(status(.requestURL(.path(2)), received: [target]) == .delivered)
    #expect(status(.requestURL(.path(3)), received: [target]) != .delivered)
    #expect(status(.requestURL(.pathParameter("session")), received: [target]) == .delivered)
    // A transport that percent-encodes the `;`: the reason says what the server received instead.
    let encoded = request("/trace/items%3Bsession=\(value)")
    #expect(
      status(.requestURL(.pathParameter("session")), received: [encoded])
        == .undelivered(
          reason: "the server never received it in path parameter ;session= (the server received it elsewhere"
            + " in the request's target, as \"items%3Bsession=<canary>\")"))
    // Twin: a target without the canary keeps saying the transport dropped it.
    #expect(
      status(.requestURL(.pathParameter("session")), received: [request("/trace/items")])
        == .undelivered(
          reason:
            "the server never received it in path parameter ;session= (the transport dropped path parameter"
            + " ;session=)"))
    let basic = "Basic " + Data("user:\(value)".utf8).base64EncodedString()
    let withAuth = request("/", headers: ["Authorization": basic])
    #expect(status(.requestURL(.password), received: [withAuth]) == .delivered)
    #expect(status(.requestURL(.user), received: [withAuth]) != .delivered)
  }

  @Test("bodies: JSON path, form field, multipart parts, text and XML")
  func bodies() {
    let json = request("/", body: #"{"tokens":["x",{"refresh":"\#(value)"}],"n":{"v":1}}"#)
    #expect(status(.requestBody(.json("tokens[1].refresh")), received: [json]) == .delivered)
    #expect(status(.requestBody(.json("tokens[0]")), received: [json]) != .delivered)
    let password = "cnrypass+&= /%?#!@$wordP!"
    let form = request("/", body: RequestKindFormProbe.encode([("password", password)]))
    #expect(status(.requestBody(.form("password")), value: password, received: [form]) == .delivered)
    let multipart = request(
      "/", headers: ["Content-Type": "multipart/form-data; boundary=XyZ"],
      body: "--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n\(value)\r\n"
        + "--XyZ\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"\(value)\"\r\n\r\nbytes\r\n--XyZ--\r\n"
    )
    #expect(status(.requestBody(.multipartField("note")), received: [multipart]) == .delivered)
    #expect(status(.requestBody(.multipartFilename("avatar")), received: [multipart]) == .delivered)
    #expect(status(.requestBody(.multipartFile("avatar")), received: [multipart]) != .delivered)
    let xml = request("/", body: "<login><password>a&amp;b\(value)</password></login>")
    #expect(status(.requestBody(.xml("login/password")), value: "a&b\(value)", received: [xml]) == .delivered)
    #expect(status(.requestBody(.text), received: [xml]) == .delivered)
  }

  @Test("response side: what the transport returned, headers, body and final URL")
  func responseSide() throws {
    let url = try #require(URL(string: "http://127.0.0.1:1/trace/kind/final/\(value)?code=\(value)"))
    let http = try #require(
      HTTPURLResponse(
        url: url, statusCode: 401, httpVersion: "HTTP/1.1",
        headerFields: ["WWW-Authenticate": "Bearer x=\"\(value)\""]))
    let returned = ObservedResponse(data: Data(#"{"user":{"id":"\#(value)"}}"#.utf8), response: http)
    #expect(status(.responseHeader("www-authenticate"), returned: [returned]) == .delivered)
    #expect(status(.responseBody(.json("user.id")), returned: [returned]) == .delivered)
    #expect(status(.finalURL(.path(3)), returned: [returned]) == .delivered)
    #expect(status(.finalURL(.query("code")), returned: [returned]) == .delivered)
    #expect(
      status(.responseHeader("X-Debug"), returned: [returned])
        == .undelivered(reason: "the transport never returned it in header X-Debug"))
  }
}

/// The form encoding the built-in kinds use, reached through a kind's request body.
enum RequestKindFormProbe {
  static func encode(_ fields: [(String, String)]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._* ")
    return fields.map { name, value in
      let encoded = (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        .replacingOccurrences(of: " ", with: "+")
      return "\(name)=\(encoded)"
    }.joined(separator: "&")
  }
}

import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Kinds from a HAR archive")
struct HARKindTests {
  /// A HAR 1.2 archive as a proxy records it: query items, headers (with hop-by-hop and pseudo
  /// headers), cookies, JSON, form and multipart bodies, and JSON responses (one base64).
  static let archive = #"""
    {"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5"}, "entries": [
      {"request": {"method": "GET", "url": "https://api.acme.example/v2/orders?cursor=abc123&partnerRef=p-77&page=2",
        "httpVersion": "HTTP/2",
        "headers": [{"name": ":authority", "value": "api.acme.example"}, {"name": "Host", "value": "api.acme.example"},
                    {"name": "Authorization", "value": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"},
                    {"name": "X-Acme-Tenant", "value": "tenant-42"}, {"name": "Accept", "value": "application/json"},
                    {"name": "Connection", "value": "keep-alive"}, {"name": "Cookie", "value": "sid=s3cr3t; device_id=6F9619FF-8B86-D011-B42D-00C04FC964FF"}],
        "queryString": [{"name": "cursor", "value": "abc123"}, {"name": "partnerRef", "value": "p-77"}, {"name": "page", "value": "2"}],
        "cookies": [{"name": "sid", "value": "s3cr3t"}, {"name": "device_id", "value": "6F9619FF-8B86-D011-B42D-00C04FC964FF"}]},
       "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "X-Debug-Token", "value": "dbg-1"},
                    {"name": "Set-Cookie", "value": "sid=new; Path=/"}],
        "content": {"mimeType": "application/json", "text": "{\"orders\":[{\"id\":\"o-1\",\"total\":12.5,\"paid\":true,\"buyer\":{\"email\":\"a@b.example\"}}],\"next\":null}"}}},
      {"request": {"method": "POST", "url": "https://api.acme.example/v2/sessions",
        "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Authorization", "value": "Basic dXNlcjpwYXNz"}],
        "postData": {"mimeType": "application/json", "text": "{\"user\":{\"email\":\"me@acme.example\",\"password\":\"hunter2!\"},\"otp\":123456,\"remember\":true,\"a.b\":\"x\"}"}},
       "response": {"status": 201, "headers": [{"name": "X-Session-Token", "value": "tok"}],
        "content": {"mimeType": "application/json", "encoding": "base64", "text": "eyJhY2Nlc3NfdG9rZW4iOiJhdCIsInVzZXIiOnsiaWQiOjd9fQ=="}}},
      {"request": {"method": "POST", "url": "https://api.acme.example/v2/profile",
        "headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}],
        "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "phone", "value": "5551234"}, {"name": "name", "value": "Ann Lee"}]}},
       "response": {"status": 204, "headers": [], "content": {"mimeType": "", "text": ""}}},
      {"request": {"method": "PUT", "url": "https://api.acme.example/v2/avatar",
        "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=XyZ"}],
        "postData": {"mimeType": "multipart/form-data; boundary=XyZ", "params": [{"name": "caption", "value": "me"}, {"name": "photo", "fileName": "me.png", "value": "PNGDATA"}]}},
       "response": {"status": 200, "headers": [], "content": {"mimeType": "image/png", "text": "AAAA", "encoding": "base64"}}},
      {"request": {"method": "GET", "url": "wss://api.acme.example/live", "headers": []}, "response": {"status": 101}}
    ]}}
    """#

  static func imported(_ limits: ImportLimits = ImportLimits()) throws -> ImportedKinds {
    try RequestKind.kinds(fromHAR: Data(archive.utf8), limits: limits)
  }

  @Test("each entry becomes a kind planting every recorded value in a matching shape")
  func everyRecordedValueIsPlanted() throws {
    let kinds = try Self.imported()
    #expect(
      kinds.kinds.map(\.name) == [
        "har-1-get-orders", "har-2-post-sessions", "har-3-post-profile", "har-4-put-avatar",
      ])
    let plans = Dictionary(
      uniqueKeysWithValues: kinds.plans.map { plan in
        (
          plan.kindName,
          Dictionary(plan.locations.map { ($0.location, $0.shape) }, uniquingKeysWith: { a, _ in a })
        )
      })
    let get = try #require(plans["har-1-get-orders"])
    #expect(get[.requestURL(.query("partnerRef"))] == .token)
    #expect(get[.requestURL(.query("page"))] == .number)
    #expect(get[.requestHeader("Authorization")] == .jwt, "the bearer keeps its scheme, the token is a JWT")
    #expect(get[.requestHeader("X-Acme-Tenant")] == .token)
    #expect(get[.requestHeader("Accept")] == nil, "kept as recorded")
    #expect(get[.requestHeader("Host")] == nil && get[.requestHeader("Connection")] == nil)
    #expect(get[.requestCookie("sid")] == .token)
    #expect(get[.requestCookie("device_id")] == .uuid)
    #expect(get[.responseHeader("X-Debug-Token")] == .token)
    #expect(get[.responseBody(.json("orders[0].buyer.email"))] == .email)
    #expect(get[.responseBody(.json("orders[0].total"))] == .number)
    #expect(get[.responseBody(.json("orders[0].paid"))] == nil)
    let post = try #require(plans["har-2-post-sessions"])
    #expect(post[.requestBody(.json("user.email"))] == .email)
    #expect(post[.requestBody(.json("user.password"))] == .password)
    #expect(post[.requestBody(.json("otp"))] == .number)
    #expect(post[.requestCredential(header: "Authorization", .password)] == .password)
    #expect(post[.responseBody(.json("access_token"))] == .jwt, "a base64 response body")
    let form = try #require(plans["har-3-post-profile"])
    #expect(form[.requestBody(.form("phone"))] == .number)
    #expect(form[.requestBody(.form("name"))] == .token)
    let multipart = try #require(plans["har-4-put-avatar"])
    #expect(multipart[.requestBody(.multipartField("caption"))] == .token)
    #expect(multipart[.requestBody(.multipartFile("photo"))] == .token)
  }

  @Test("what is not replayed is reported by JSON pointer")
  func skippedIsReported() throws {
    let skipped = try Self.imported().skipped.map(\.description)
    func has(_ pointer: String, _ words: String) -> Bool {
      skipped.contains { $0.hasPrefix(pointer + ":") && $0.contains(words) }
    }
    #expect(has("/log/entries/0/request/headers/0", "pseudo-header"))
    #expect(has("/log/entries/0/response/headers/2", "Set-Cookie"))
    #expect(has("/log/entries/1/request/postData/text", "`a.b`"))
    #expect(has("/log/entries/3/response/content", "image/png"))
    #expect(has("/log/entries/4/request/url", "wss"))
    #expect(skipped.count == 5)
  }

  @Test("every canary of every entry is delivered through URLSession, and a route-only logger is clean")
  func everyCanaryIsDelivered() async throws {
    let kinds = try Self.imported()
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "har", configuration: .init(captureStandardStreams: false), kinds: kinds.kinds
    ) {
      TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.errors == [])
    #expect(report.verdict == .clean)
    #expect(result.coverage.count == kinds.canaryCount)
  }

  @Test("twin: a logger that prints the replayed requests and responses is caught at every planted place")
  func leakyLoggerIsCaught() async throws {
    let kinds = try Self.imported()
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "har-leaky", configuration: .init(captureStandardStreams: false), kinds: kinds.kinds
    ) {
      TestTransports.leaky(.urlSession(session), into: $0.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    let leaked = Set(report.leakedLocations)
    #expect(leaked.contains(.requestURL(.query("partnerRef"))))
    #expect(leaked.contains(.requestHeader("X-Acme-Tenant")))
    #expect(leaked.contains(.requestBody(.json("user.password"))))
    #expect(leaked.contains(.responseBody(.json("orders[0].buyer.email"))))
  }

  @Test(
    "a HAR entry with more values than the limit plants up to it and reports the rest; more entries than maxKinds are reported"
  )
  func limitsAreKeptAndCounted() throws {
    var limits = ImportLimits()
    limits.maxCanariesPerKind = 3
    limits.maxKinds = 2
    let kinds = try Self.imported(limits)
    #expect(kinds.kinds.count == 2)
    #expect(kinds.plans.allSatisfy { $0.locations.count <= 3 })
    #expect(
      kinds.skipped.contains { $0.pointer == "/log/entries/0" && $0.reason.contains("maxCanariesPerKind") })
    #expect(kinds.skipped.contains { $0.pointer == "/log/entries/2" && $0.reason.contains("maxKinds") })
    limits = ImportLimits()
    limits.maxSkippedRecorded = 1
    let capped = try Self.imported(limits)
    #expect(capped.skipped.count == 1)
    #expect(capped.skippedCount == 5)
  }

  @Test("an archive that is not HAR gets an error naming where")
  func malformedArchives() {
    func error(_ text: String) -> String {
      do {
        _ = try RequestKind.kinds(fromHAR: Data(text.utf8))
        return "no error"
      } catch { return "\(error)" }
    }
    #expect(error(#"{"entries": []}"#).hasPrefix("/log: missing"))
    #expect(
      error(#"{"log": {"entries": [{"request": {"method": "GET"}}]}}"#).hasPrefix(
        "/log/entries/0/request/url"))
    #expect(
      error(#"{"log": {"entries": [{"request": {"url": "http://x/"}}]}}"#).hasPrefix(
        "/log/entries/0/request/method"))
    #expect(error("[1, 2]").contains("not a JSON object"))
    #expect(error(#"{"log": "#).contains("not valid JSON"))
  }
}

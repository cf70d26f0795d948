import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Kinds from an OpenAPI document")
struct OpenAPIKindTests {
  static func imported() throws -> ImportedKinds {
    try RequestKind.kinds(fromOpenAPI: OpenAPIFixture.shopData)
  }

  static func plan(_ kinds: ImportedKinds, _ name: String) throws -> [CanaryLocation: CanaryShape] {
    let plan = try #require(kinds.plans.first { $0.kindName == name }, "no kind \(name)")
    return Dictionary(plan.locations.map { ($0.location, $0.shape) }, uniquingKeysWith: { a, _ in a })
  }

  @Test("one kind per operation, named after its operationId")
  func oneKindPerOperation() throws {
    let kinds = try Self.imported()
    #expect(
      kinds.kinds.map(\.name) == [
        "api-createcharge", "api-listcustomers", "api-createcustomer", "api-getcustomer",
        "api-deletecustomer",
        "api-updatecustomer",
        "api-addcard", "api-uploaddocument", "api-health", "api-listorders", "api-placeorder",
        "api-refundpayment", "api-signin", "api-signin-xml",
      ])
    #expect(kinds.plans.map(\.origin).contains("PUT /payments/{paymentId}/refund"))
  }

  @Test(
    "every parameter location, security scheme, body property and response part is planted where the spec puts it"
  )
  func plantedLocationsMatchTheSpec() throws {
    let kinds = try Self.imported()
    let list = try Self.plan(kinds, "api-listcustomers")
    #expect(list[.requestURL(.query("email"))] == .email)
    #expect(list[.requestURL(.query("partnerRef"))] == .token)
    #expect(list[.requestURL(.query("page_size"))] == .number, "a $ref parameter")
    #expect(list[.requestHeader("X-Partner-Key")] == .token, "the document-wide apiKey scheme")
    #expect(list[.responseHeader("X-Next-Cursor")] == .token)
    #expect(list[.responseBody(.json("[0].email"))] == .email, "an array of $ref objects")
    #expect(list[.responseBody(.json("[0].address.geo.lat"))] == .number, "nested three deep")
    #expect(list[.responseBody(.json("[0].tags[0]"))] == .token)
    #expect(list[.responseBody(.json("[0].referredBy.email"))] == nil, "a recursive $ref is planted once")

    let get = try Self.plan(kinds, "api-getcustomer")
    #expect(get[.requestURL(.path(3))] == .uuid, "the path-item parameter, after route and `customers`")
    #expect(get[.requestHeader("X-Acme-Tenant")] == .token)

    let create = try Self.plan(kinds, "api-createcustomer")
    #expect(create[.requestBody(.json("address.postcode"))] == .token, "requestBodies $ref")
    #expect(create[.responseHeader("X-Request-Signature")] == .token, "responses $ref")
    #expect(create[.responseHeader("Location")] == .token)

    let delete = try Self.plan(kinds, "api-deletecustomer")
    #expect(delete[.requestCredential(header: "Authorization", .user)] == .email)
    #expect(delete[.requestCredential(header: "Authorization", .password)] == .password)
    #expect(
      delete[.requestHeader("X-Partner-Key")] == nil, "the operation's security replaces the document's")

    let card = try Self.plan(kinds, "api-addcard")
    #expect(card[.requestHeader("Authorization")] == .jwt)
    #expect(
      card[.requestBody(.json("number"))] == .number, "allOf branch 1, the catalog's shape for `number`")
    #expect(card[.requestBody(.json("billing.city"))] == .token, "allOf branch 2")
    #expect(card[.responseBody(.json("last4"))] == .number)

    let signIn = try Self.plan(kinds, "api-signin")
    #expect(signIn[.requestBody(.form("password"))] == .password)
    #expect(signIn[.requestBody(.form("otp"))] == .number)
    #expect(signIn[.requestBody(.form("remember"))] == nil, "a boolean carries no canary")
    #expect(signIn[.responseHeader("X-Session-Token")] == .token)
    #expect(signIn[.responseBody(.json("access_token"))] == .jwt, "the catalog's shape for the name")
    #expect(signIn[.requestHeader("X-Partner-Key")] == nil, "security: [] turns it off")

    let upload = try Self.plan(kinds, "api-uploaddocument")
    #expect(upload[.requestBody(.multipartField("ownerEmail"))] == .email)
    #expect(upload[.requestBody(.multipartFile("file"))] == .token)
    #expect(upload[.requestHeader("Authorization")] == .jwt, "OAuth2 as a bearer token")

    let orders = try Self.plan(kinds, "api-listorders")
    #expect(orders[.requestURL(.query("ids"))] == .token, "an array query parameter")
    #expect(orders[.requestURL(.query("status"))] != nil)
    #expect(orders[.requestCookie("device_id")] == .uuid)
    #expect(orders[.requestHeader("Accept")] == nil)
    #expect(orders[.responseBody(.json("orders[0].items[0].giftMessage"))] == .token)

    let refund = try Self.plan(kinds, "api-refundpayment")
    #expect(refund[.requestURL(.path(3))] == .number, "route, `payments`, then the id")
    #expect(refund[.requestURL(.path(4))] == nil, "`refund` is a literal segment")
    #expect(refund[.requestHeader("Idempotency-Key")] == .token)
    #expect(refund[.requestBody(.json("iban"))] != nil, "oneOf by its first branch")
    #expect(refund[.requestBody(.json("card_number"))] == nil)

    let charge = try Self.plan(kinds, "api-createcharge")
    #expect(charge[.requestBody(.form("card[number]"))] == .number, "deepObject, through a $ref")
    #expect(charge[.requestBody(.form("card[cvv]"))] != nil)
    #expect(charge[.requestBody(.form("shipping[address][line1]"))] == .token, "deepObject two deep")
    #expect(charge[.requestBody(.form("shipping[address][geo][lat]"))] == .number)
    #expect(charge[.requestBody(.form("items[0][price]"))] == .token, "a deepObject array of objects")
    #expect(
      charge[.requestBody(.form("order_ref"))] == .token, "an exploded form object: one field per property")
    #expect(charge[.requestBody(.form("metadata"))] == nil)
    #expect(charge[.requestBody(.form("expand"))] == .token, "an array (form, exploded) by one element")
    #expect(charge[.requestBody(.form("labels"))] == .token, "a pipeDelimited array by one element")
    #expect(charge[.requestBody(.form("amount"))] == .number)
    #expect(charge.keys.filter { "\($0)".contains("billing") || "\($0)".contains("vat_id") }.isEmpty)

    let xml = try Self.plan(kinds, "api-signin-xml")
    #expect(xml[.requestBody(.xml("login/username"))] != nil, "the root named by xml.name")
    #expect(xml[.requestBody(.xml("login/password"))] == .password)
    #expect(xml[.requestBody(.xml("login/@device"))] == .uuid, "xml.attribute with xml.name")
    #expect(xml[.requestBody(.xml("login/factors/factor"))] == .token, "a wrapped array, items by xml.name")
    #expect(xml[.requestBody(.xml("login/code"))] == .token, "an unwrapped array: one element per item")
    #expect(xml[.requestBody(.xml("login/client/secretHash"))] == .token, "a nested object")
    #expect(xml.keys.filter { "\($0)".hasPrefix("request.body.xml") }.count == 7, "\(xml.keys)")

    let patch = try Self.plan(kinds, "api-updatecustomer")
    #expect(patch[.requestBody(.json("email"))] == .email, "a +json media type")
  }

  @Test("what is not planted is reported by JSON pointer, never skipped silently")
  func skippedConstructsAreReported() throws {
    let kinds = try Self.imported()
    let skipped = kinds.skipped.map(\.description)
    func has(_ pointer: String, _ words: String) -> Bool {
      skipped.contains { $0.hasPrefix(pointer + ":") && $0.contains(words) }
    }
    #expect(!skipped.contains { $0.contains("media type application/xml") }, "XML bodies are planted")
    #expect(
      has(
        "/paths/~1charges/post/requestBody/content/application~1x-www-form-urlencoded/schema/properties/billing",
        "style form, explode false"))
    #expect(has("/paths/~1orders/get/parameters/3", "Accept is ignored"))
    #expect(
      has(
        "/paths/~1payments~1{paymentId}~1refund/put/requestBody/content/application~1json/schema/oneOf",
        "1 other branch"))
    #expect(has("/components/schemas/Customer/properties/referredBy", "recursive $ref"))
    #expect(has("/paths/~1sessions/post/responses/200/headers/Set-Cookie", "sets cookies"))
    #expect(
      has(
        "/paths/~1documents/post/requestBody/content/multipart~1form-data/schema/properties/meta",
        "nested object"))
    #expect(has("/paths/~1customers/get/responses", "401"))
    #expect(kinds.skippedCount == kinds.skipped.count)
    #expect(!kinds.isComplete)
    #expect(throws: KindImportError.self) { try kinds.requireComplete() }
  }

  @Test("callbacks and response links are reported as not planted; without them the operation is complete")
  func callbacksAndLinksAreReported() throws {
    func document(extras: String) -> Data {
      Data(
        #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "paths": {"/hooks": {"post": {"operationId": "subscribe",
           "parameters": [{"name": "topic", "in": "query", "schema": {"type": "string"}}],
           "responses": {"201": {"description": "ok" EXTRA_LINKS }} EXTRA_CALLBACKS }}}}
        """#.replacingOccurrences(
          of: "EXTRA_LINKS", with: extras.isEmpty ? "" : #", "links": {"next": {"operationId": "subscribe"}}"#
        )
        .replacingOccurrences(
          of: "EXTRA_CALLBACKS",
          with: extras.isEmpty ? "" : #", "callbacks": {"onEvent": {"{$request.query.topic}": {}}}"#
        ).utf8)
    }
    let withBoth = try RequestKind.kinds(fromOpenAPI: document(extras: "yes"))
    let skipped = withBoth.skipped.map(\.description)
    #expect(
      skipped.contains {
        $0.hasPrefix("/paths/~1hooks/post/callbacks:") && $0.contains("callbacks are not planted")
      })
    #expect(
      skipped.contains { $0.hasPrefix("/paths/~1hooks/post/responses/201/links:") && $0.contains("links") })
    #expect(!withBoth.isComplete)
    // Twin: the same operation without callbacks or links plants everything it has.
    let plain = try RequestKind.kinds(fromOpenAPI: document(extras: ""))
    #expect(plain.skipped.isEmpty, "\(plain.skipped)")
    #expect(plain.isComplete)
  }

  static func matrix(_ kinds: [RequestKind], logger: @escaping @Sendable (Transport, MemoryLog) -> Transport)
    async -> MatrixResult
  {
    let session = TestTransports.session()
    return await CanaryTrap.matrix(
      title: "openapi", configuration: .init(captureStandardStreams: false), kinds: kinds
    ) {
      logger(.urlSession(session), $0.memoryLog())
    }
  }

  @Test(
    "every planted canary of every operation is delivered through URLSession, and a route-only logger is clean"
  )
  func everyCanaryIsDelivered() async throws {
    let kinds = try Self.imported()
    let result = await Self.matrix(kinds.kinds) { TestTransports.routeOnly($0, into: $1) }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.errors == [])
    #expect(report.verdict == .clean)
    let planted = Dictionary(grouping: result.coverage, by: \.kind).mapValues { $0.map(\.location) }
    for plan in kinds.plans {
      #expect(planted[plan.kindName] ?? [] == plan.locations.map(\.location), "\(plan.kindName)")
    }
    #expect(result.coverage.count == kinds.canaryCount)
    #expect(kinds.canaryCount > 100)
  }

  /// Logs every query item and request header, redacting the names of the built-in catalog
  /// (compared case-insensitively) and, when `everything`, every value.
  static func standardNamesRedactor(everything: Bool) -> @Sendable (Transport, MemoryLog) -> Transport {
    let standard = Set(SensitiveName.catalog.map { $0.name.lowercased() })
    return { base, log in
      let inner = TestTransports.routeOnly(base, into: log)
      return Transport { request in
        let items =
          request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        for item in items {
          let redact = everything || standard.contains(item.name.lowercased())
          log.write("query \(item.name)=\(redact ? "[REDACTED]" : item.value ?? "")")
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
          let redact =
            everything || standard.contains(name.lowercased()) || name.lowercased() == "authorization"
          log.write("header \(name): \(redact ? "[REDACTED]" : value)")
        }
        return try await inner.send(request)
      }
    }
  }

  @Test("a logger that redacts only the standard names leaks the API's own partnerRef and X-Partner-Key")
  func standardNamesRedactorIsCaught() async throws {
    let kinds = try Self.imported()
    let result = await Self.matrix(kinds.kinds, logger: Self.standardNamesRedactor(everything: false))
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    let leaked = Set(report.leakedLocations)
    #expect(leaked.contains(.requestURL(.query("partnerRef"))))
    #expect(leaked.contains(.requestHeader("X-Partner-Key")))
    #expect(leaked.contains(.requestHeader("X-Acme-Tenant")))
    #expect(!leaked.contains(.requestURL(.query("email"))), "a catalog name is redacted")
    // None of the three is a name of the built-in catalog, so only the document plants them.
    let catalog = Set(SensitiveName.catalog.map { $0.name.lowercased() })
    #expect(catalog.intersection(["partnerref", "x-partner-key", "x-acme-tenant"]).isEmpty)
  }

  @Test("twin: the same logger redacting every value is clean over the same kinds")
  func fullRedactorIsClean() async throws {
    let kinds = try Self.imported()
    let result = await Self.matrix(kinds.kinds, logger: Self.standardNamesRedactor(everything: true))
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .clean)
  }

  /// Logs every form field of a form body, redacting the names of the built-in catalog (compared
  /// case-insensitively), and every XML body with its `<password>` element redacted; when
  /// `everything`, it logs no value of either.
  static func bodyLogger(everything: Bool) -> @Sendable (Transport, MemoryLog) -> Transport {
    let standard = Set(SensitiveName.catalog.map { $0.name.lowercased() })
    return { base, log in
      let inner = TestTransports.routeOnly(base, into: log)
      return Transport { request in
        let type = request.value(forHTTPHeaderField: "Content-Type") ?? ""
        let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
        if type.hasPrefix("application/x-www-form-urlencoded") {
          for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
              let spaced = $0.replacingOccurrences(of: "+", with: " ")
              return spaced.removingPercentEncoding ?? spaced
            }
            let redact = everything || standard.contains(parts[0].lowercased())
            log.write("form \(parts[0])=\(redact ? "[REDACTED]" : parts.count > 1 ? parts[1] : "")")
          }
        } else if type.hasPrefix("application/xml") {
          let redacted = body.replacingOccurrences(
            of: "<password>[^<]*</password>", with: "<password>[REDACTED]</password>",
            options: .regularExpression)
          log.write("xml \(everything ? "[REDACTED]" : redacted)")
        }
        return try await inner.send(request)
      }
    }
  }

  @Test("a body logger redacting by field name leaks deepObject fields and XML attributes and elements")
  func bodyLoggerLeaksNestedFormFieldsAndXML() async throws {
    let kinds = try Self.imported()
    let result = await Self.matrix(kinds.kinds, logger: Self.bodyLogger(everything: false))
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    let leaked = Set(report.leakedLocations)
    for location: CanaryLocation in [
      .requestBody(.form("card[number]")), .requestBody(.form("card[cvv]")),
      .requestBody(.form("shipping[address][line1]")), .requestBody(.form("items[0][price]")),
      .requestBody(.xml("login/@device")), .requestBody(.xml("login/factors/factor")),
      .requestBody(.xml("login/client/secretHash")),
    ] {
      #expect(leaked.contains(location), "\(location)")
    }
    #expect(!leaked.contains(.requestBody(.form("password"))), "a catalog name at the top level is redacted")
    #expect(!leaked.contains(.requestBody(.xml("login/password"))), "the redacted element")
  }

  @Test("twin: the same body logger logging no value is clean over the same kinds")
  func bodyLoggerRedactingEverythingIsClean() async throws {
    let kinds = try Self.imported()
    let result = await Self.matrix(kinds.kinds, logger: Self.bodyLogger(everything: true))
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .clean)
  }
}

import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("The names apps use")
struct SensitiveNameTests {
  /// Names a typical redactor is configured with, spelled as the APIs spell them.
  static let configured = [
    "apiKey", "access_token", "client_secret", "password", "X-Amz-Security-Token", "X-Amz-Signature",
    "signature", "sig", "key", "token", "session", "email",
  ]

  /// Logs the method, the route and every query item of each request, redacting the items whose
  /// name `matches` a configured name.
  static func queryLogger(
    _ base: Transport, into log: MemoryLog, matches: @escaping @Sendable (String, String) -> Bool
  ) -> Transport {
    let inner = TestTransports.routeOnly(base, into: log)
    return Transport { request in
      let items =
        request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
      for item in items {
        let redact = configured.contains { matches(item.name, $0) }
        log.write("query \(item.name)=\(redact ? "[REDACTED]" : item.value ?? "")")
      }
      return try await inner.send(request)
    }
  }

  /// The buggy redactor: lower-cases the incoming name, then compares it with the configured
  /// names as configured, so `apiKey` (or any name with a capital) never matches.
  static let lowerCasedIncoming: @Sendable (String, String) -> Bool = { incoming, name in
    incoming.lowercased() == name
  }

  /// The correct redactor: compares both names case-insensitively.
  static let caseInsensitive: @Sendable (String, String) -> Bool = { incoming, name in
    incoming.lowercased() == name.lowercased()
  }

  static func queryLeaks(kinds: [RequestKind], matches: @escaping @Sendable (String, String) -> Bool)
    async throws -> (MatrixResult, Set<String>)
  {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "query-redactor", configuration: .init(captureStandardStreams: false), kinds: kinds
    ) {
      queryLogger(.urlSession(session), into: $0.memoryLog(), matches: matches)
    }
    let report = try #require(result.report)
    let names = report.leakedLocations.compactMap { location -> String? in
      if case .requestURL(.query(let name)) = location { return name }
      return nil
    }
    return (result, Set(names))
  }

  @Test(
    "a redactor that compares lower-cased names against a configured apiKey is caught by the built-in matrix alone"
  )
  func lowerCasingRedactorIsCaught() async throws {
    let (result, leaked) = try await Self.queryLeaks(kinds: RequestKind.all, matches: Self.lowerCasedIncoming)
    #expect(result.allDelivered)
    #expect(result.report?.verdict == .leaky)
    // Every configured name with a capital letter escapes the redactor, and is reported.
    let configuredLeaks = leaked.filter { name in
      Self.configured.contains { $0.lowercased() == name.lowercased() }
    }
    #expect(configuredLeaks == ["apiKey", "ApiKey", "apikey", "X-Amz-Security-Token", "X-Amz-Signature"])
    #expect(leaked.contains("apiKey"))
  }

  @Test("before the catalog, the same redactor's case bug went unseen")
  func theOldMatrixMissedTheCaseBug() async throws {
    let builtIn = Set(RequestKind.sensitiveNames.map(\.name))
    let (_, leaked) = try await Self.queryLeaks(
      kinds: RequestKind.all.filter { !builtIn.contains($0.name) }, matches: Self.lowerCasedIncoming)
    #expect(!leaked.contains { name in Self.configured.contains { $0.lowercased() == name.lowercased() } })
  }

  @Test("twin: a redactor that compares case-insensitively is clean for the names it is configured with")
  func caseInsensitiveRedactorIsClean() async throws {
    let (result, leaked) = try await Self.queryLeaks(kinds: RequestKind.all, matches: Self.caseInsensitive)
    #expect(result.allDelivered)
    #expect(!leaked.contains { name in Self.configured.contains { $0.lowercased() == name.lowercased() } })
    // The rest of the query items are not configured, so they still leak: the logger is heard.
    #expect(leaked.contains("api_key"))
  }

  @Test("the catalog holds at least 80 names, each sourced, placed, and spelled once")
  func catalogIsLargeAndSourced() {
    let catalog = SensitiveName.catalog
    #expect(catalog.count >= 80)
    #expect(catalog.filter { $0.source.trimmingCharacters(in: .whitespaces).count < 10 }.map(\.name) == [])
    #expect(catalog.filter(\.places.isEmpty).map(\.name) == [])
    let duplicates = Dictionary(grouping: catalog, by: \.name).filter { $0.value.count > 1 }.keys.sorted()
    #expect(duplicates == [])
    #expect(Set(catalog.map(\.category)) == Set(SensitiveName.Category.allCases))
    for place in SensitiveName.Place.allCases {
      #expect(catalog.contains { $0.places.contains(place) }, "no name is planted in \(place)")
    }
  }

  @Test("the common spellings and the case and separator variants are all there")
  func variantsArePresent() {
    let names = Set(SensitiveName.catalog.map(\.name))
    let required = [
      "apiKey", "ApiKey", "api-key", "API_KEY", "api_key", "apikey", "key", "access_token", "accessToken",
      "id_token", "client_secret", "X-Auth-Token", "X-Amz-Security-Token", "signature", "sig",
      "refresh_token",
      "code", "otp", "password", "email", "phone", "name", "address", "birthdate", "ssn", "lat", "lon",
      "card_number", "cvv", "iban", "device_id", "idfa",
    ]
    #expect(required.filter { !names.contains($0) } == [])
  }

  @Test(
    "shapes fit the names: emails are emails, codes and card data are digits only, passwords have symbols")
  func shapesFit() {
    for entry in SensitiveName.catalog {
      let lower = entry.name.lowercased()
      if lower.contains("email") { #expect(entry.shape == .email, "\(entry.name)") }
      if (lower.contains("password") && entry.category == .credential)
        || ["passwd", "pwd", "pass"].contains(lower)
      {
        #expect(entry.shape == .password, "\(entry.name)")
      }
      if ["otp", "totp", "pin", "cvv", "cvc", "cvv2", "lat", "lon", "lng", "phone", "card_number", "ssn"]
        .contains(lower)
      {
        #expect(entry.shape == .number, "\(entry.name)")
      }
      if ["id_token", "idtoken", "access_token", "accesstoken"].contains(lower) {
        #expect(entry.shape == .jwt, "\(entry.name)")
      }
      if ["idfa", "idfv", "device_id", "deviceid"].contains(lower) {
        #expect(entry.shape == .uuid, "\(entry.name)")
      }
    }
  }

  @Test(
    "every name is planted in every place it lists, one canary per location, and delivered through URLSession"
  )
  func everyPlaceIsPlantedAndDelivered() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "names", configuration: .init(captureStandardStreams: false), kinds: RequestKind.sensitiveNames
    ) {
      TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.errors == [])
    #expect(report.verdict == .clean)
    let planted = Dictionary(grouping: result.coverage, by: \.location)
    #expect(planted.filter { $0.value.count > 1 }.map(\.key.description) == [])
    var headersSeen: Set<String> = []
    var responseHeadersSeen: Set<String> = []
    for entry in SensitiveName.catalog {
      for place in entry.places {
        var locations: [CanaryLocation] = []
        switch place {
        case .query: locations = [.requestURL(.query(entry.name))]
        case .header:
          if headersSeen.insert(entry.name.lowercased()).inserted { locations = [.requestHeader(entry.name)] }
        case .cookie: locations = [.requestCookie(entry.name)]
        case .json: locations = [.requestBody(.json(entry.name))]
        case .nestedJSON: locations = [.requestBody(.json("data.\(entry.name)"))]
        case .form: locations = [.requestBody(.form(entry.name))]
        case .multipart: locations = [.requestBody(.multipartField(entry.name))]
        case .responseJSON:
          locations = [.responseBody(.json(entry.name)), .responseBody(.json("data.\(entry.name)"))]
        case .responseHeader:
          if responseHeadersSeen.insert(entry.name.lowercased()).inserted {
            locations = [.responseHeader(entry.name)]
          }
        }
        for location in locations {
          let rows = planted[location] ?? []
          #expect(rows.count == 1, "\(entry.name) is not planted at \(location)")
          #expect(rows.first?.canary.shape == entry.shape, "\(location) has the wrong shape")
        }
      }
    }
    // Digits-only canaries are still long enough to be unique.
    let numbers = result.coverage.filter { $0.canary.shape == .number }.map(\.canary.value)
    #expect(!numbers.isEmpty)
    #expect(numbers.allSatisfy { $0.count >= 12 && $0.allSatisfy(\.isNumber) })
  }

  @Test("a subset and an entry of the user's own plant only those names, in the kinds they need")
  func subsetAndExtension() async throws {
    let mine = SensitiveName(
      "X-Acme-Tenant-Secret", .credential, .token, in: [.header, .query], source: "Acme internal API docs")
    let subset = SensitiveName.catalog.filter { $0.category == .oneTimeCode } + [mine]
    let kinds = RequestKind.kinds(planting: subset)
    #expect(
      kinds.map(\.name) == ["names-query", "names-headers", "names-json", "names-form", "names-multipart"])
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "subset", configuration: .init(captureStandardStreams: false), kinds: kinds
    ) {
      TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog())
    }
    #expect(result.allDelivered)
    let locations = Set(result.coverage.map(\.location))
    #expect(locations.contains(.requestHeader("X-Acme-Tenant-Secret")))
    #expect(locations.contains(.requestURL(.query("otp"))))
    #expect(!locations.contains(.requestURL(.query("apiKey"))))
  }

  @Test("twin: a logger that prints the catalog's headers is caught at those headers")
  func leakyHeaderLoggerIsCaught() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "names-leaky", configuration: .init(captureStandardStreams: false),
      kinds: RequestKind.sensitiveNames
    ) {
      TestTransports.leaky(.urlSession(session), into: $0.memoryLog())
    }
    let report = try #require(result.report)
    #expect(report.verdict == .leaky)
    let leaked = Set(report.leakedLocations)
    #expect(leaked.contains(.requestHeader("X-Amz-Security-Token")))
    #expect(leaked.contains(.requestURL(.query("apiKey"))))
    #expect(leaked.contains(.requestBody(.json("data.otp"))))
    #expect(leaked.contains(.responseBody(.json("data.id_token"))))
  }
}

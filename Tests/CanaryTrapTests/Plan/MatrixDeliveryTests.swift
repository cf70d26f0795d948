import CanaryTrap
import Foundation
import Testing

@Suite("The matrix through URLSession")
struct MatrixDeliveryTests {
  @Test("a logger of method and route is clean and every kind delivers every canary")
  func routeOnlyLoggerIsCleanAndEverythingArrives() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "route-only", configuration: .init(captureStandardStreams: false)
    ) {
      TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.errors == [])
    #expect(report.findings.isEmpty)
    #expect(report.sources.map(\.status) == [.heard])
    #expect(report.verdict == .clean)
    #expect(result.kinds.map(\.name) == RequestKind.all.map(\.name))
    #expect(result.kinds.allSatisfy { !$0.canaries.isEmpty })
  }

  @Test("the matrix covers every built-in location, in every shape")
  func everyListedLocationIsPlanted() async {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "coverage", configuration: .init(captureStandardStreams: false)
    ) {
      TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog())
    }
    let locations = Set(result.coverage.map(\.location.description))
    let expected = [
      "request.url.user", "request.url.password", "request.url.path[2]", "request.url.pathParam[session]",
      "request.url.query[session]", "request.url.fragment", "request.header[authorization]",
      "request.header[X-API-KEY]", "request.header[x-Acme-Session-Ref]", "request.cookie[sid]",
      "request.body.json[user.profile.account]", "request.body.json[tokens[1\\].refresh]",
      "request.body.form[password]", "request.body.multipart[note]", "request.body.multipart[avatar].file",
      "request.body.multipart[avatar].filename", "request.body.text", "request.body.xml[login/password]",
      "response.header[WWW-Authenticate]", "response.header[X-Debug-Token]", "response.cookie[session_id]",
      "response.body.json[access_token]", "response.body.text", "response.body.json[trace_id]",
      "redirect[1].location.query[sig]", "redirect[1].location.path[2]", "redirect[2].location.path[2]",
      "final.url.query[code]", "final.url.path[3]", "request.header[Authorization].basic.user",
      "request.header[Authorization].basic.password", "request.header[Proxy-Authorization].basic.user",
      "request.header[Proxy-Authorization].basic.password", "response.location.path[3]",
      "response.location.query[token]", "redirect[1].location.query[sig307]",
      "redirect[1].location.pathParam[ref307]",
    ]
    #expect(expected.filter { !locations.contains($0) } == [])
    for code in [301, 302, 303, 307, 308] {
      #expect(result.kinds.contains { $0.name == "redirect-\(code)" })
    }
    let shapesByPlace = Dictionary(grouping: result.coverage.filter { $0.kind == "shapes" }) {
      $0.location.description.components(separatedBy: "[").first!
    }.mapValues { Set($0.compactMap(\.canary.shape)) }
    let fiveShapes: Set<CanaryShape> = [.token, .email, .uuid, .number, .jwt]
    #expect(shapesByPlace["request.url.path"] == fiveShapes)
    #expect(shapesByPlace["request.url.query"] == fiveShapes)
    #expect(shapesByPlace["request.body.json"] == fiveShapes)
    #expect(shapesByPlace["response.body.json"] == fiveShapes)
    #expect(result.allDelivered)
  }

  @Test("no location of the catalog holds two canaries, so a report always says which one leaked")
  func everyLocationHoldsOneCanary() async {
    let result = await CanaryTrap.matrix(
      title: "one-per-location", configuration: .init(captureStandardStreams: false)
    ) {
      TestTransports.routeOnly(.urlSession(TestTransports.session()), into: $0.memoryLog())
    }
    let byLocation = Dictionary(grouping: result.coverage, by: \.location.description)
    #expect(byLocation.filter { $0.value.count > 1 }.keys.sorted() == [])
    #expect(result.coverage.count > 60)
    // Twin: the same check catches a catalog where two kinds plant the same location.
    let twin = RequestKind(
      name: "get-query-twin", summary: "get-query again", plant: RequestKind.getQuery.plant)
    let doubled = await CanaryTrap.matrix(
      title: "two-per-location", configuration: .init(captureStandardStreams: false),
      kinds: [.getQuery, twin]
    ) {
      TestTransports.routeOnly(.urlSession(TestTransports.session()), into: $0.memoryLog())
    }
    let doubledByLocation = Dictionary(grouping: doubled.coverage, by: \.location.description)
    #expect(
      doubledByLocation.filter { $0.value.count > 1 }.keys.sorted() == [
        "request.url.query[email]", "request.url.query[session]",
      ])
  }

  @Test("a transport that strips a header makes the run inconclusive, naming that canary")
  func strippedHeaderIsUndelivered() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "stripped", configuration: .init(captureStandardStreams: false), kinds: [.authHeaders]
    ) { trap in
      TestTransports.routeOnly(
        TestTransports.stripping("X-API-KEY", .urlSession(session)), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(report.verdict == .inconclusive)
    let undelivered = try #require(report.undelivered.first)
    #expect(report.undelivered.count == 1)
    #expect(undelivered.canary.location == .requestHeader("X-API-KEY"))
    guard case .undelivered(let reason) = undelivered.status else { return }
    #expect(reason.contains("the transport dropped header X-API-KEY"))
  }

  @Test(
    "the same kinds delivered through upload and download tasks", arguments: Transport.SessionMode.allCases)
  func everySessionModeDelivers(mode: Transport.SessionMode) async throws {
    let session = TestTransports.session()
    let kinds: [RequestKind] = [.postJSON, .multipartUpload, .signIn, .responseHeader, .redirect(307)]
    let result = await CanaryTrap.matrix(
      title: "mode-\(mode)", configuration: .init(captureStandardStreams: false), kinds: kinds
    ) { trap in
      TestTransports.routeOnly(.urlSession(session, mode: mode), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .clean)
  }
}

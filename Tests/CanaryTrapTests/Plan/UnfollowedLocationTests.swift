import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `Location` headers the transport does not follow (a 201, a 3xx with redirects off) and
/// secrets the client holds but must never send, through a real URLSession.
@Suite("Unfollowed Locations and held secrets through URLSession")
struct UnfollowedLocationTests {
  private static func logLocation(_ request: URLRequest, _ response: HTTPURLResponse?) -> [String] {
    [
      "\(LocationTransports.route(request)) → \(response?.statusCode ?? 0) "
        + (response?.value(forHTTPHeaderField: "Location") ?? "-")
    ]
  }

  @Test("201 Created: a careful logger is clean, a logger of the Location leaks its path and query")
  func createdLocationTwins() async throws {
    let session = TestTransports.session()
    let careful = await CanaryTrap.matrix(
      title: "created-careful", configuration: .init(captureStandardStreams: false), kinds: [.createdLocation]
    ) { TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog()) }
    #expect(careful.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(careful.report?.verdict == .clean)
    let leaky = await CanaryTrap.matrix(
      title: "created-leaky", configuration: .init(captureStandardStreams: false), kinds: [.createdLocation]
    ) { LocationTransports.logging(.urlSession(session), into: $0.memoryLog(), describe: Self.logLocation) }
    #expect(leaky.allDelivered)
    #expect(
      Set(leaky.report?.leakedLocations ?? []) == [
        .responseLocation(.path(KindPlanter.firstDataSegment + 1)), .responseLocation(.query("token")),
      ])
  }

  @Test("a 302 with redirects off is delivered in the Location handed to the app, and caught there")
  func redirectsOff() async throws {
    let delegate = TestSessionDelegate(followRedirects: false)
    let session = LocationTransports.session(delegate: delegate)
    let careful = await CanaryTrap.matrix(
      title: "redirects-off-careful", configuration: .init(captureStandardStreams: false),
      kinds: [.redirect(302)]
    ) { TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog()) }
    #expect(careful.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(careful.report?.verdict == .clean)
    let leaky = await CanaryTrap.matrix(
      title: "redirects-off-leaky", configuration: .init(captureStandardStreams: false),
      kinds: [.redirect(302)]
    ) { LocationTransports.logging(.urlSession(session), into: $0.memoryLog(), describe: Self.logLocation) }
    #expect(
      Set(leaky.report?.leakedLocations ?? []) == [
        .redirect(hop: 1, .query("sig302")), .redirect(hop: 1, .pathParameter("ref302")),
      ])
    // The server never saw the landing request: the Location was not followed.
    #expect(leaky.allDelivered)
  }

  @Test("a cookie held for another host: clean when it never travels, and gone from the store after")
  func heldCookieStaysHome() async throws {
    let session = TestTransports.session()
    let storage = try #require(session.configuration.httpCookieStorage)
    let result = await CanaryTrap.matrix(
      title: "held-careful",
      configuration: .init(captureStandardStreams: false, sinks: [CookieStorageSink(storage: storage)]),
      kinds: [.heldCookie(in: storage), .signIn]
    ) { TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog()) }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .clean)
    #expect(
      result.coverage.filter { $0.kind == "held-cookie" }.map(\.location) == [
        .clientHeld("other-host-cookie")
      ])
    #expect(!(storage.cookies ?? []).contains { $0.name == "other_host_session" })
  }

  @Test("a transport that sends every stored cookie puts the held one on the wire: reported there")
  func heldCookieOnTheWireIsALeak() async throws {
    let session = TestTransports.session()
    let storage = try #require(session.configuration.httpCookieStorage)
    let result = await CanaryTrap.matrix(
      title: "held-wire", configuration: .init(captureStandardStreams: false),
      kinds: [.heldCookie(in: storage)]
    ) { trap in
      let careless = Transport { request in
        var withAll = request
        let header = HTTPCookie.requestHeaderFields(with: storage.cookies ?? [])["Cookie"]
        withAll.setValue(header, forHTTPHeaderField: "X-Saved-Cookies")
        return try await Transport.urlSession(session).send(withAll)
      }
      return TestTransports.routeOnly(careless, into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(report.verdict == .leaky)
    #expect(report.findings.map(\.source) == ["wire"])
    #expect(report.leakedLocations == [.clientHeld("other-host-cookie")])
    guard case .undelivered(let reason) = result.undelivered.first?.status else {
      Issue.record("a held secret on the wire was taken as proven")
      return
    }
    #expect(reason.contains("which a held secret must never do"))
  }

  @Test("a logger that dumps the cookie store is caught holding the held cookie")
  func heldCookieInALog() async throws {
    let session = TestTransports.session()
    let storage = try #require(session.configuration.httpCookieStorage)
    let result = await CanaryTrap.matrix(
      title: "held-log", configuration: .init(captureStandardStreams: false),
      kinds: [.heldCookie(in: storage)]
    ) { trap in
      let log = trap.memoryLog()
      return Transport { request in
        for cookie in storage.cookies ?? [] { log.write("cookie \(cookie.name)=\(cookie.value)") }
        return try await Transport.urlSession(session).send(request)
      }
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(report.findings.map(\.source) == ["memory-log"])
  }
}

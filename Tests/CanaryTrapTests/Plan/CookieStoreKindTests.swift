import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The sign-in kind's session cookie goes Set-Cookie → the app's cookie store → `Cookie` on the
/// next request, through a real URLSession and its HTTPCookieStorage.
@Suite("The session cookie through the app's cookie store")
struct CookieStoreKindTests {
  private static func storage(of session: URLSession) throws -> HTTPCookieStorage {
    try #require(session.configuration.httpCookieStorage)
  }

  @Test("a careful logger is clean, the store re-sent the cookie and holds no canary after sign-out")
  func carefulLoggerIsClean() async throws {
    let session = TestTransports.session()
    let storage = try Self.storage(of: session)
    let result = await CanaryTrap.matrix(
      title: "cookie-careful",
      configuration: .init(captureStandardStreams: false, sinks: [CookieStorageSink(storage: storage)]),
      kinds: [.signIn, .requestCookies]
    ) { trap in
      let log = trap.memoryLog()
      return LocationTransports.logging(.urlSession(session), into: log) { request, _ in
        [LocationTransports.route(request)]
      }
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.findings.isEmpty)
    #expect(report.verdict == .clean)
    let values = Set(result.kinds.flatMap(\.canaries).map(\.value))
    #expect(!(storage.cookies ?? []).contains { values.contains($0.value) })
    #expect((storage.cookies ?? []).contains { $0.name == "session_id" && $0.value == "signed-out" })
  }

  @Test("a logger of the cookies the store attaches is caught at response.cookie[session_id], re-sent")
  func leakOfTheResentCookieIsNamed() async throws {
    let session = TestTransports.session()
    let storage = try Self.storage(of: session)
    let result = await CanaryTrap.matrix(
      title: "cookie-leaky", configuration: .init(captureStandardStreams: false), kinds: [.signIn]
    ) { trap in
      let log = trap.memoryLog()
      return Transport { request in
        // Logs the Cookie header the store is about to add, as a debugging client might.
        if let url = request.url, let cookies = storage.cookies(for: url), !cookies.isEmpty {
          log.write(
            "→ \(LocationTransports.route(request)) Cookie: "
              + (HTTPCookie.requestHeaderFields(with: cookies)["Cookie"] ?? ""))
        }
        return try await Transport.urlSession(session).send(request)
      }
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.leakedLocations == [.responseCookie("session_id")])
    #expect(report.leakedLocations.first?.resentAs == .requestCookie("session_id"))
    let text = String(decoding: report.rendered(as: .text), as: UTF8.self)
    #expect(text.contains("(set by the response, re-sent as request.cookie[session_id])"))
    #expect(
      report.findings.first?.message.hasSuffix(
        "(set by the response, re-sent as request.cookie[session_id]): \"\(report.findings[0].excerpt)\"")
        == true)
  }

  @Test("a transport that keeps no cookies leaves the session cookie undelivered, saying why")
  func noCookieStoreIsInconclusive() async throws {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    let session = URLSession(configuration: configuration)
    let result = await CanaryTrap.matrix(
      title: "no-cookies", configuration: .init(captureStandardStreams: false), kinds: [.signIn]
    ) { trap in
      TestTransports.routeOnly(.urlSession(session), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(report.verdict == .inconclusive)
    #expect(result.undelivered.map(\.canary.location) == [.responseCookie("session_id")])
    guard case .undelivered(let reason) = result.undelivered.first?.status else { return }
    #expect(reason.contains("no later request sent it back in request.cookie[session_id]"))
  }

  @Test("parallel scopes on one session: each sign-in cookie stays with its scope, other kinds untouched")
  func parallelScopesShareOneStoreWithoutCrossTalk() async throws {
    let session = TestTransports.session()
    let results = await withTaskGroup(of: MatrixResult.self) { group in
      for index in 0..<6 {
        group.addTask {
          await CanaryTrap.matrix(
            title: "cookie-parallel-\(index)", configuration: .init(captureStandardStreams: false),
            kinds: [.requestCookies, .signIn, .getQuery]
          ) { trap in
            TestTransports.routeOnly(.urlSession(session), into: trap.memoryLog())
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 6)
    for result in results {
      #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
      #expect(result.report?.verdict == .clean)
    }
  }
}

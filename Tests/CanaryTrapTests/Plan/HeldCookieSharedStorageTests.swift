import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `RequestKind.heldCookie(in: .shared)` in scopes that run at the same time, as parallel Swift
/// Testing tests do: each scope's cookie is its own, and the scope takes it back.
@Suite("Held cookies in a storage scopes share")
struct HeldCookieSharedStorageTests {
  /// A session storing cookies in `storage`.
  private static func session(storing storage: HTTPCookieStorage) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.httpCookieStorage = storage
    return URLSession(configuration: configuration)
  }

  /// The held cookies the scopes with these tracers planted that are still in `storage` (other
  /// tests may use the shared storage at the same time).
  private static func heldCookies(in storage: HTTPCookieStorage, of tracers: Set<String>) -> [HTTPCookie] {
    (storage.cookies ?? []).filter { cookie in
      tracers.contains { cookie.domain == "\($0).other-host.invalid" }
    }
  }

  /// The cookies in `storage` that hold the held canary of `report`, whatever their host.
  private static func cookies(in storage: HTTPCookieStorage, holdingTheHeldCanaryOf report: LeakReport)
    -> [HTTPCookie]
  {
    let held = report.canaries.filter { $0.location == .clientHeld("other-host-cookie") }.map(\.value)
    return (storage.cookies ?? []).filter { held.contains($0.value) }
  }

  @Test("scopes planting held cookies in HTTPCookieStorage.shared at the same time all run clean")
  func parallelScopesOnTheSharedStorage() async throws {
    let storage = HTTPCookieStorage.shared
    let session = Self.session(storing: storage)
    let rounds = 12
    let scopesPerRound = 4
    let tracers = Locked(Set<String>())
    for round in 0..<rounds {
      let reports = await withTaskGroup(of: LeakReport?.self) { group in
        for index in 0..<scopesPerRound {
          group.addTask {
            await CanaryTrap.matrix(
              title: "held-shared-\(round)-\(index)", configuration: .init(captureStandardStreams: false),
              kinds: [.heldCookie(in: storage)]
            ) { trap in
              tracers.withLock { _ = $0.insert(trap.tracer) }
              return TestTransports.routeOnly(.urlSession(session), into: trap.memoryLog())
            }.report
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      for report in reports {
        let report = try #require(report)
        #expect(report.verdict == .clean, "round \(round): \(report.problems.map(\.message))")
        #expect(Self.cookies(in: storage, holdingTheHeldCanaryOf: report).isEmpty)
      }
    }
    #expect(tracers.current.count == rounds * scopesPerRound)
    #expect(Self.heldCookies(in: storage, of: tracers.current).isEmpty)
  }

  @Test("a held cookie whose request never arrived is taken back before the cookie store is read")
  func cookieOfAnUnsentRequestIsTakenBack() async throws {
    let storage = HTTPCookieStorage.shared
    let tracer = Locked("")
    let result = await CanaryTrap.matrix(
      title: "held-unsent",
      configuration: .init(captureStandardStreams: false, sinks: [CookieStorageSink(storage: storage)]),
      kinds: [.heldCookie(in: storage)]
    ) { trap in
      let log = trap.memoryLog()
      tracer.withLock { $0 = trap.tracer }
      return Transport { request in
        log.write("GET \(trap.tracer): not sent")
        throw URLError(.notConnectedToInternet)
      }
    }
    let report = try #require(result.report)
    #expect(!report.errors.contains { $0.contains("could not plant") }, "\(report.errors)")
    #expect(report.canaries.contains { $0.location == .clientHeld("other-host-cookie") })
    // Nothing leaked: the planted cookie is the scope's own, not one the app copied.
    #expect(report.findings.map { "\($0.canary.location) in \($0.source)" } == [])
    #expect(report.verdict == .inconclusive)
    #expect(Self.cookies(in: storage, holdingTheHeldCanaryOf: report).isEmpty)
    #expect(Self.heldCookies(in: storage, of: [tracer.current]).isEmpty)
  }

  @Test("twin: a cookie the app copied into the store under its own name is still found there")
  func copiedCookieIsStillFound() async throws {
    let storage = HTTPCookieStorage.shared
    let copyDomain = "copy-\(UUID().uuidString.lowercased()).invalid"
    let result = await CanaryTrap.matrix(
      title: "held-copied",
      configuration: .init(captureStandardStreams: false, sinks: [CookieStorageSink(storage: storage)]),
      kinds: [.heldCookie(in: storage)]
    ) { trap in
      let session = Self.session(storing: storage)
      return Transport { request in
        for held in Self.heldCookies(in: storage, of: [trap.tracer]) {
          let copy = HTTPCookie(properties: [
            .name: "copied", .value: held.value, .domain: copyDomain, .path: "/",
          ])
          guard let copy else { throw URLError(.cannotParseResponse) }
          storage.setCookie(copy)
        }
        return try await TestTransports.routeOnly(.urlSession(session), into: trap.memoryLog()).send(request)
      }
    }
    let report = try #require(result.report)
    #expect(report.findings.map(\.source) == ["cookies"])
    #expect(report.leakedLocations == [.clientHeld("other-host-cookie")])
    for cookie in (storage.cookies ?? []) where cookie.domain == copyDomain { storage.deleteCookie(cookie) }
  }

  @Test("a storage that refuses cookies is named by its accept policy")
  func refusingStorageIsNamed() async throws {
    let session = TestTransports.session()
    let storage = try #require(session.configuration.httpCookieStorage)
    storage.cookieAcceptPolicy = .never
    let result = await CanaryTrap.matrix(
      title: "held-refused", configuration: .init(captureStandardStreams: false),
      kinds: [.heldCookie(in: storage)]
    ) { TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog()) }
    let report = try #require(result.report)
    #expect(report.errors.contains { $0.contains("its cookieAcceptPolicy is .never") }, "\(report.errors)")
    #expect(!report.errors.contains { $0.contains("accept policy never?") })
  }
}

import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("User-defined request kinds")
struct CustomKindTests {
  /// A kind of the user's own: a PATCH with a canary in an unlisted header and the response body.
  private static let patchProfile = RequestKind(name: "patch-profile", summary: "PATCH with a custom header")
  { p in
    let header = p.canary(.token, at: .requestHeader("X-Tenant-Secret"))
    let echo = p.canary(.uuid, at: .responseBody(.json("profile.etag")))
    p.server.on("PATCH", p.path("profile"), respond: .json(#"{"profile":{"etag":"\#(echo)"}}"#))
    return [p.request("PATCH", p.url(p.path("profile")), headers: [("X-Tenant-Secret", header)])]
  }

  @Test("a custom kind is planted, delivered, and caught when its response is logged")
  func customKindRunsLikeABuiltInOne() async throws {
    for logsBody in [false, true] {
      let session = TestTransports.session()
      let result = await CanaryTrap.matrix(
        title: "custom", configuration: .init(captureStandardStreams: false), kinds: [Self.patchProfile]
      ) { trap in
        let log = trap.memoryLog()
        let base = TestTransports.routeOnly(.urlSession(session), into: log)
        return Transport { request in
          let (data, response) = try await base.send(request)
          if logsBody { log.write(String(decoding: data, as: UTF8.self)) }
          return (data, response)
        }
      }
      let report = try #require(result.report)
      #expect(
        result.coverage.map(\.location) == [
          .requestHeader("X-Tenant-Secret"), .responseBody(.json("profile.etag")),
        ])
      #expect(result.allDelivered)
      #expect(report.verdict == (logsBody ? .leaky : .clean))
      #expect(report.leakedLocations == (logsBody ? [.responseBody(.json("profile.etag"))] : []))
    }
  }

  #if canImport(FoundationNetworking)
    @Test("a stored cookie that replaces the app's Cookie header is reported undelivered, with the culprit")
    func storedCookieReplacesTheAppsCookieHeader() async throws {
      let storesCookie = RequestKind(name: "stores-cookie", summary: "sets a cookie the session keeps") { p in
        p.server.on(.get, p.path("set"), respond: .text("ok").header("Set-Cookie", "stale=1; Path=/"))
        return [p.request("GET", p.url(p.path("set")))]
      }
      let session = TestTransports.session()
      let (_, report) = await CanaryTrap.withScope(
        title: "stale", configuration: .init(captureStandardStreams: false)
      ) {
        trap in
        trap.memoryLog().write("log")
        try await trap.runMatrix(through: .urlSession(session), kinds: [storesCookie])
        try await trap.runMatrix(through: .urlSession(session), kinds: [.requestCookies])
      }
      #expect(report.verdict == .inconclusive)
      #expect(
        report.undelivered.map(\.canary.location) == [.requestCookie("sid"), .requestCookie("device_id")])
      let reasons = report.undelivered.map { delivery -> String in
        if case .undelivered(let reason) = delivery.status { return reason }
        return ""
      }
      #expect(reasons.allSatisfy { $0.contains("cookies the server did receive: stale") })
    }
  #endif
}

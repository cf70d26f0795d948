import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// End to end, as a new user meets it: an API client that logs `"\(body as NSData)"` when the
/// server answers 422, under a custom kind (PATCH, nested JSON body).
@Suite("A client logging Data on failure")
struct NSDataLoggingMatrixTests {
  private static let patchProfile = RequestKind(
    name: "patch-profile", summary: "PATCH a nested JSON body, answered 422"
  ) { p in
    let email = p.canary(.email, at: .requestBody(.json("profile.email")))
    let password = p.canary(.password, at: .requestBody(.json("profile.password")))
    p.server.on("PATCH", p.path("profile"), respond: .json(#"{"error":"unprocessable"}"#, status: 422))
    let body = try JSONSerialization.data(withJSONObject: ["profile": ["email": email, "password": password]])
    return [
      p.request(
        "PATCH", p.url(p.path("profile")), headers: [("Content-Type", "application/json")], body: body)
    ]
  }

  @Test("the body logged as NSData on a 422 is found; the twin that logs no body is clean")
  func bodyLoggedAsDataIsLeaky() async throws {
    for logsBody in [true, false] {
      let session = TestTransports.session()
      let result = await CanaryTrap.matrix(
        title: "nsdata", configuration: .init(captureStandardStreams: false), kinds: [Self.patchProfile]
      ) { trap in
        let log = trap.memoryLog()
        let base = TestTransports.routeOnly(.urlSession(session), into: log)
        return Transport { request in
          let (data, response) = try await base.send(request)
          if (response as? HTTPURLResponse)?.statusCode == 422, let body = request.httpBody {
            log.write(
              "API error 422 for \(request.httpMethod ?? "?"): \(logsBody ? "\(body as NSData)" : "<redacted>")"
            )
          }
          return (data, response)
        }
      }
      let report = try #require(result.report)
      #expect(result.allDelivered)
      #expect(report.verdict == (logsBody ? .leaky : .clean))
      let names = Set(report.findings.map(\.encoding))
      #expect(names == (logsBody ? ["nsdata-hex", "json-escaped → nsdata-hex"] : []))
      #expect(
        Set(report.leakedLocations)
          == (logsBody
            ? [.requestBody(.json("profile.email")), .requestBody(.json("profile.password"))] : []))
    }
  }
}

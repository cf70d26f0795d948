import CanaryTrap
import CanaryTrapExamples
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct DenylistInterceptorTests {
  @Test func blanksTheFourListedKeysAndLogsEverythingElse() async throws {
    try await withServer { server in
      server.on(.post, "/login", respond: .json(#"{"ok":true}"#))
      let log = CollectedLines()
      let client = InterceptingClient(
        session: URLSession(configuration: .uncachedEphemeral), interceptors: [DenylistInterceptor(sink: log)]
      )
      let listed = ["password", "token", "accessToken", "refreshToken"].map { ($0, secret($0)) }
      let unlisted = [("access_token", secret("snake")), ("email", secret("mail"))]
      let queryValue = secret("query")
      let headerValue = secret("header")
      let body =
        "{" + (listed + unlisted).map { #""\#($0.0)": "\#($0.1)""# }.joined(separator: ",") + "}"
      let request = makeRequest(
        "POST", URL(string: "\(server.baseURL)/login?device=\(queryValue)")!,
        headers: ["X-Session": headerValue, "Content-Type": "application/json"], body: body)

      _ = try await client.send(request)

      let text = log.text
      for (key, value) in listed {
        #expect(!text.contains(value), "\(key) should be blanked")
        #expect(text.contains(#""\#(key)":"***""#))
      }
      // What the denylist was never told about passes through: that is the design's flaw.
      for (_, value) in unlisted { #expect(text.contains(value)) }
      #expect(text.contains("device=\(queryValue)"))
      #expect(!text.contains(headerValue), "the interceptor logs no header")
      #expect(text.contains("← ✓ 200 /login"))
      #expect(server.requests.last?.body == Data(body.utf8), "the request is sent unchanged")
    }
  }

  @Test func logsAFailedStatusWithACross() async throws {
    try await withServer { server in
      server.on(.get, "/missing", respond: .text("nope", status: 404))
      let log = CollectedLines()
      let client = InterceptingClient(
        session: URLSession(configuration: .uncachedEphemeral), interceptors: [DenylistInterceptor(sink: log)]
      )
      _ = try await client.send(makeRequest("GET", URL(string: "\(server.baseURL)/missing")!))
      #expect(log.all == ["→ GET \(server.baseURL)/missing", "← ✗ 404 /missing"])
    }
  }
}

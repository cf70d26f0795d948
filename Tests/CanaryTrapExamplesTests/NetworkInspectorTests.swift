import CanaryTrap
import Foundation
import Testing

@testable import CanaryTrapExamples

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct NetworkInspectorTests {
  @Test func recordsForwardsAndRedactsOnlyAuthorizationAndCookie() async throws {
    try await withServer { server in
      let responseToken = secret("resp")
      server.on(.post, "/api/items") { _ in .json(#"{"token":"\#(responseToken)"}"#, status: 201) }
      let inspector = NetworkInspector()
      let session = inspector.makeSession()
      let bearer = secret("bearer")
      let cookie = secret("cookie")
      let apiKey = secret("key")
      let request = makeRequest(
        "POST", URL(string: "\(server.baseURL)/api/items")!,
        headers: [
          "Authorization": "Bearer \(bearer)", "Cookie": "sid=\(cookie)", "X-API-Key": apiKey,
          "Content-Type": "application/json",
        ],
        body: #"{"name":"lamp"}"#)

      let (data, response) = try await session.data(for: request)

      #expect((response as? HTTPURLResponse)?.statusCode == 201)
      #expect(String(decoding: data, as: UTF8.self).contains(responseToken))
      let received = try #require(server.requests.last)
      #expect(received.headers["Authorization"] == "Bearer \(bearer)", "forwarded unchanged")
      #expect(received.body == Data(#"{"name":"lamp"}"#.utf8))
      let entry = try #require(inspector.entries.last { $0.url.hasPrefix(server.baseURL.absoluteString) })
      #expect(entry.requestHeader("Authorization") == NetworkInspector.redactedValue)
      #expect(entry.requestHeader("Cookie") == NetworkInspector.redactedValue)
      #expect(entry.requestHeader("X-API-Key") == apiKey, "only two headers are redacted")
      #expect(entry.statusCode == 201)
      #expect(entry.responseBody.map { String(decoding: $0, as: UTF8.self) }?.contains(responseToken) == true)
    }
  }

  @Test func exportsHARAndCurlFilesWithRedirects() async throws {
    try await withServer { server in
      let signature = secret("sig")
      server.on(.get, "/download", respond: .redirect(302, to: "/file?sig=\(signature)"))
      server.on(.get, "/file", respond: .text("bytes"))
      let inspector = NetworkInspector()
      let session = inspector.makeSession()
      let bearer = secret("bearer")
      let (_, response) = try await session.data(
        for: makeRequest(
          "GET", URL(string: "\(server.baseURL)/download")!, headers: ["Authorization": "Bearer \(bearer)"]))
      #expect(response.url?.query == "sig=\(signature)")

      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("inspector-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let files = try inspector.export(to: directory)
      #expect(
        files.map(\.lastPathComponent) == [NetworkInspector.harFileName, NetworkInspector.curlFileName])

      let har = try JSONSerialization.jsonObject(with: Data(contentsOf: files[0])) as? [String: Any]
      let entries = (har?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
      let mine = try #require(
        entries.last {
          (($0["request"] as? [String: Any])?["url"] as? String)?.hasPrefix(server.baseURL.absoluteString)
            == true
        })
      let redirectURL = (mine["response"] as? [String: Any])?["redirectURL"] as? String
      #expect(redirectURL?.contains("sig=\(signature)") == true, "the Location is exported as recorded")
      let curl = try String(contentsOf: files[1], encoding: .utf8)
      #expect(curl.contains("curl -X 'GET' '\(server.baseURL)/download'"))
      #expect(curl.contains("Authorization: \(NetworkInspector.redactedValue)"))
      #expect(!curl.contains(bearer))
    }
  }

  @Test func curlQuotingSurvivesQuotesAndCombiningMarks() {
    let entry = InspectorEntry(
      startedAt: Date(), duration: 0, method: "POST", url: "http://127.0.0.1/x",
      requestHeaders: [.init(name: "X-Note", value: "it'\u{301}s")], requestBody: nil, statusCode: nil,
      responseHeaders: [], responseBody: nil, redirects: [], finalURL: nil, error: nil)
    #expect(entry.curlCommand() == "curl -X 'POST' 'http://127.0.0.1/x' -H 'X-Note: it'\\''\u{301}s'")
  }
}

@Suite struct NetworkInspectorStorageTests {
  private func entry(_ path: String, authorization: String) -> InspectorEntry {
    InspectorEntry(
      startedAt: Date(), duration: 0, method: "GET", url: "http://127.0.0.1/\(path)",
      requestHeaders: [.init(name: "authorization", value: authorization)], requestBody: nil, statusCode: 200,
      responseHeaders: [], responseBody: nil, redirects: [], finalURL: nil, error: nil)
  }

  @Test func keepsTheNewestEntriesUpToItsLimitAndRedactsInAnyCase() {
    let inspector = NetworkInspector(limit: 2)
    for path in ["a", "b", "c"] { inspector.record(entry(path, authorization: "Bearer \(path)")) }
    // Inspectors are process-wide, so a parallel test's exchange may be recorded here too; either
    // way at most two entries remain and the oldest is gone.
    #expect(inspector.entries.count == 2)
    #expect(!inspector.entries.contains { $0.url == "http://127.0.0.1/a" })
    #expect(
      inspector.entries.allSatisfy { $0.requestHeader("Authorization") == NetworkInspector.redactedValue })
    inspector.clear()
    #expect(inspector.entries.isEmpty)
  }
}

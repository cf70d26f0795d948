import CanaryTrap
import Foundation
import Testing

@testable import CanaryTrapExamples

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("HAR recorded by the NetworkInspector, replayed as kinds")
struct InspectorHARReplayTests {
  /// Records three exchanges of a stand-in app through the inspector and returns its HAR export.
  static func recordHAR() async throws -> Data {
    try await withServer { server in
      server.on(.post, "/api/login") { _ in
        .json(#"{"token":"t-1","user":{"id":"u-1","email":"ann@acme.example"}}"#).header(
          "X-Debug-Token", "dbg")
      }
      server.on(.get, "/api/orders") { _ in .json(#"{"orders":[{"id":"o-1","card_last4":"4242"}]}"#) }
      let inspector = NetworkInspector()
      let session = inspector.makeSession()
      let base = server.baseURL.absoluteString
      _ = try await session.data(
        for: makeRequest(
          "POST", URL(string: "\(base)/api/login")!, headers: ["Content-Type": "application/json"],
          body: #"{"email":"ann@acme.example","password":"hunter2"}"#))
      _ = try await session.data(
        for: makeRequest(
          "GET", URL(string: "\(base)/api/orders?partnerRef=p-9&page=1")!,
          headers: ["Authorization": "Bearer t-1", "X-API-Key": "k-1", "Cookie": "sid=s-1"]))
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "har-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let files = try inspector.export(to: directory)
      // Keep only this test's exchanges: inspectors are process-wide.
      var har = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: files[0])) as? [String: Any])
      var log = try #require(har["log"] as? [String: Any])
      log["entries"] = (log["entries"] as? [[String: Any]] ?? []).filter {
        (($0["request"] as? [String: Any])?["url"] as? String)?.hasPrefix(base) == true
      }
      har["log"] = log
      return try JSONSerialization.data(withJSONObject: har)
    }
  }

  @Test("kinds built from the inspector's own HAR export find the inspector's leaks when replayed through it")
  func replayFindsTheInspectorsLeaks() async throws {
    let imported = try RequestKind.kinds(fromHAR: try await Self.recordHAR())
    #expect(imported.kinds.count == 2)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "har-replay-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let inspector = NetworkInspector()
    var matrix: MatrixResult?
    let (result, report) = await CanaryTrap.withScope(
      title: "inspector-har", configuration: .init(captureStandardStreams: false)
    ) { trap in
      await trap.addSink(FileSink(name: "export", [directory.path], relativeTo: directory))
      matrix = try await trap.runMatrix(through: .urlSession(inspector.makeSession()), kinds: imported.kinds)
      try inspector.export(to: directory)
    }
    try result.get()
    #expect(matrix?.allDelivered == true, "\(matrix?.undelivered ?? [])")
    #expect(report.verdict == .leaky)
    let leaked = Set(report.leakedLocations)
    for location: CanaryLocation in [
      .requestBody(.json("password")), .requestURL(.query("partnerRef")),
      .responseBody(.json("token")), .responseHeader("X-Debug-Token"),
      .responseBody(.json("orders[0].card_last4")),
    ] {
      #expect(leaked.contains(location), "\(location) is not reported")
    }
    #expect(!leaked.contains(.requestHeader("Authorization")), "the inspector redacts Authorization")
    // The inspector records header names as the transport spelled them (`X-Api-Key` on Linux).
    #expect(
      leaked.contains {
        if case .requestHeader(let name) = $0 { name.lowercased() == "x-api-key" } else { false }
      })
  }

  @Test("twin: the same kinds through a plain session with a route-only log are clean and delivered")
  func plainReplayIsClean() async throws {
    let imported = try RequestKind.kinds(fromHAR: try await Self.recordHAR())
    let result = await CanaryTrap.matrix(
      title: "har-plain", configuration: .init(captureStandardStreams: false), kinds: imported.kinds
    ) { trap in
      let log = trap.memoryLog()
      let session = URLSession(configuration: .uncachedEphemeral)
      return Transport { request in
        log.write(
          "\(request.httpMethod ?? "") \(request.url?.pathComponents.prefix(3).joined(separator: "/") ?? "")")
        return try await Transport.urlSession(session).send(request)
      }
    }
    #expect(result.allDelivered)
    #expect(result.report?.verdict == .clean)
  }
}

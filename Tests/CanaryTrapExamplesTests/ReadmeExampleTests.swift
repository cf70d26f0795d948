import CanaryTrap
import CanaryTrapPrimitives
import CanaryTrapTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The README's first canary test as written (its `APIClient` logs each request's path, so it
/// leaks every path canary), and the fix the README names (log the route without its data), clean.
enum ReadmeExample {
  struct APIClient: Sendable {  // yours: built as the app builds it, logging where the app logs
    let session = URLSession(configuration: .ephemeral)
    let log: @Sendable (String) -> Void
    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
      let (data, response) = try await session.data(for: request)
      log(
        "\(request.httpMethod ?? "GET") \(request.url?.path ?? "") → \((response as? HTTPURLResponse)?.statusCode ?? 0)"
      )
      return (data, response)
    }
  }

  /// The README's fix: the same client logging the route (`/`, the tracer, the kind) only.
  struct RouteLoggingClient: Sendable {
    let session = URLSession(configuration: .ephemeral)
    let log: @Sendable (String) -> Void
    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
      let (data, response) = try await session.data(for: request)
      let route = request.url?.pathComponents.prefix(3).joined(separator: "/") ?? ""
      log("\(request.httpMethod ?? "GET") \(route) → \((response as? HTTPURLResponse)?.statusCode ?? 0)")
      return (data, response)
    }
  }
}

@Suite struct ReadmeExampleTests {
  @Test("the README's test, as written, fails once per path canary with the message it shows")
  func theREADMETestFailsOnEveryPathCanary() async throws {
    let issues = Locked([String]())
    try await withKnownIssue {
      try await withCanaryTrap(configuration: CanaryTrap.Configuration(captureStandardStreams: false)) {
        trap in
        let log = trap.memoryLog()  // a sink: what the app's logger writes
        let client = ReadmeExample.APIClient(log: { log.write($0) })
        try await trap.runMatrix(through: Transport { try await client.send($0) })
      }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      issues.withLock { $0.append(text) }
      return text.contains("leaked into memory-log") || text.contains("more problems of this run")
    }
    // The client logs paths and nothing else: every leak is a path canary, in plain text, and the
    // README's message is the first of them.
    let leaks = issues.current.filter { $0.contains("leaked into memory-log") }
    #expect(leaks.count >= 5)
    #expect(leaks.allSatisfy { $0.contains(".url.path") }, "\(leaks.filter { !$0.contains(".url.path") })")
    #expect(
      leaks.contains {
        $0.hasPrefix("canary planted in request.url.path[2] leaked into memory-log, in plain text, at line ")
      })
    #expect(issues.current.allSatisfy { !$0.contains("undelivered") && !$0.contains("silent") })
  }
}

/// The README's fix, under the trait as the README writes it: clean.
@Suite(.canaryTrap) struct NetworkLogLeakTests {
  @Test func networkLogLeaksNoSecret() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    let log = trap.memoryLog()  // a sink: what the app's logger writes
    let client = ReadmeExample.RouteLoggingClient(log: { log.write($0) })
    try await trap.runMatrix(through: Transport { try await client.send($0) })
  }  // the scope ends: every sink is scanned, one issue per problem
}

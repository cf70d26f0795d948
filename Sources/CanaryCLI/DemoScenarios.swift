import CanaryTrap
import CanaryTrapExamples
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DemoScenario {
  /// The five examples, in the order the demo runs them.
  static let all: [DemoScenario] = [printingLogger, denylist, redacting, inspector, breadcrumbUploader]

  /// A configuration that writes no report by itself and captures the standard streams unless the
  /// examples print into a memory log (as in tests, where parallel tests share the streams).
  private static func configuration(
    sinks: [any LeakSink] = [], printing: PrintDestination
  ) -> CanaryTrap.Configuration {
    CanaryTrap.Configuration(
      captureStandardStreams: printing == .standardOutput, sinks: sinks, reportDirectory: nil)
  }

  /// Runs the matrix through `transport` built in the scope, then `afterwards` (exports, flushes).
  private static func runScope(
    title: String, configuration: CanaryTrap.Configuration, kinds: [RequestKind],
    transport: @escaping @Sendable (CanaryTrap) throws -> Transport,
    afterwards: @escaping @Sendable (CanaryTrap) async throws -> Void = { _ in }
  ) async -> LeakReport {
    let (_, report) = await CanaryTrap.withScope(title: title, configuration: configuration) { trap in
      try await trap.runMatrix(through: try transport(trap), kinds: kinds)
      try await afterwards(trap)
    }
    return report
  }

  /// Example 1: prints every request and response in full.
  static let printingLogger = DemoScenario(
    name: "printing-logger",
    title: "1. PrintingLogger — prints every request and response (stdout, cookie storage, URL cache)",
    expectation: .leaks(
      at: [
        .requestURL(.query("session")), .requestURL(.path(2)), .requestHeader("authorization"),
        .requestHeader("X-API-KEY"), .requestHeader("x-Acme-Session-Ref"), .requestCookie("sid"),
        .requestBody(.json("user.password")), .requestBody(.form("password")),
        .requestBody(.multipartFile("avatar")), .responseHeader("X-Debug-Token"),
        .responseCookie("session_id"), .responseBody(.json("access_token")), .finalURL(.query("code")),
        .requestURL(.query("access_token")), .requestHeader("X-Chat-Token"),
        .webSocket(.clientMessage(1, .text)), .webSocket(.clientMessage(2, .binary)),
        .webSocket(.serverMessage(1, .text)), .webSocket(.serverMessage(2, .binary)),
        .webSocket(.clientCloseReason), .webSocket(.serverCloseReason),
      ], notAt: []),
    webSocket: .runs,
    run: runPrintingLogger)

  private static func runPrintingLogger(kinds: [RequestKind], printing: PrintDestination) async -> LeakReport
  {
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    let cache = makeMemoryURLCache()
    sessionConfiguration.urlCache = cache
    sessionConfiguration.requestCachePolicy = .useProtocolCachePolicy
    let cacheSink = URLCacheSink(cache: cache, name: "url-cache")
    var sinks: [any LeakSink] = [
      CookieStorageSink(
        storage: sessionConfiguration.httpCookieStorage ?? HTTPCookieStorage.shared, name: "cookie-storage"),
      cacheSink,
    ]
    let printed = MemoryLog(name: "stdout")
    if printing == .memoryLog { sinks.append(printed) }
    let session = URLSession(configuration: sessionConfiguration)
    defer { session.finishTasksAndInvalidate() }
    let output: @Sendable (String) -> Void
    switch printing {
    case .memoryLog: output = { line in printed.write(line) }
    case .standardOutput: output = { line in print(line) }
    }
    return await runScope(
      title: "printing-logger", configuration: configuration(sinks: sinks, printing: printing), kinds: kinds,
      transport: { _ in
        let logger = PrintingLogger(session: session, output: output)
        let chat = WebSocketChatClient { output(WebSocketChatClient.printedLine($0)) }
        return Transport { request in
          if request.url?.scheme == "ws" { return try await chat.send(request) }
          cacheSink.lookUp(request)
          return try await logger.send(request)
        }
      },
      afterwards: { _ in fflushStandardOutput() })
  }

  /// Example 2: blanks four JSON keys with a regex and logs URL and body to a memory log.
  static let denylist = DemoScenario(
    name: "denylist-interceptor",
    title: "2. DenylistInterceptor — blanks password/token/accessToken/refreshToken (memory log)",
    expectation: .leaks(
      at: [
        .requestURL(.query("session")), .requestURL(.query("email")), .requestURL(.user),
        .requestURL(.path(2)), .requestBody(.json("user.email")), .requestBody(.json("tokens[0]")),
        .requestBody(.form("password")), .requestBody(.text), .requestBody(.xml("login/password")),
      ],
      notAt: [
        .requestBody(.json("password")), .requestHeader("X-API-KEY"), .requestCookie("sid"),
        .responseBody(.json("refresh_token")), .responseCookie("session_id"),
        .responseHeader("X-Debug-Token"),
      ]),
    webSocket: .notRun(reason: "its interceptors wrap URLSession data tasks; it has no WebSocket client"),
    run: { kinds, printing in await runDenylist(kinds: kinds, printing: printing) })

  private static func runDenylist(kinds: [RequestKind], printing: PrintDestination) async -> LeakReport {
    await runScope(
      title: "denylist-interceptor", configuration: configuration(printing: printing), kinds: kinds,
      transport: { trap in
        let client = InterceptingClient(
          session: URLSession(configuration: .uncachedEphemeral),
          interceptors: [DenylistInterceptor(sink: trap.memoryLog())])
        return Transport { try await client.send($0) }
      })
  }

  /// Example 3: the allowlist redactor, one line per exchange.
  static let redacting = DemoScenario(
    name: "redacting-transport",
    title: "3. RedactingTransport — allowlist redaction, one line per exchange (memory log)",
    expectation: .clean,
    webSocket: .runs,
    run: { kinds, printing in await runRedacting(kinds: kinds, printing: printing) })

  private static func runRedacting(kinds: [RequestKind], printing: PrintDestination) async -> LeakReport {
    await runScope(
      title: "redacting-transport", configuration: configuration(printing: printing), kinds: kinds,
      transport: { trap in
        let log = trap.memoryLog()
        let transport = RedactingTransport(sink: log)
        let chat = WebSocketChatClient { log.write(WebSocketChatClient.redactedLine($0)) }
        return Transport { request in
          if request.url?.scheme == "ws" { return try await chat.send(request) }
          return try await transport.send(request)
        }
      })
  }

  /// Example 4: the in-app inspector and its HAR and cURL exports.
  static let inspector = DemoScenario(
    name: "network-inspector",
    title: "4. NetworkInspector — URLProtocol capture, HAR and cURL exports (export files)",
    expectation: .leaks(
      at: [
        .requestURL(.query("session")), .requestURL(.user), .requestHeader("X-API-KEY"),
        .requestHeader("x-Acme-Session-Ref"), .requestBody(.json("user.password")),
        .responseCookie("session_id"), .responseHeader("X-Debug-Token"),
        .responseBody(.json("access_token")), .redirect(hop: 1, .query("sig302")),
      ],
      notAt: [.requestCookie("sid"), .requestCookie("device_id")]),
    webSocket: .notRun(
      reason: "its URLProtocol sees URLSession data tasks only; a WebSocket never passes through it"),
    run: { kinds, printing in await runInspector(kinds: kinds, printing: printing) })

  private static func runInspector(kinds: [RequestKind], printing: PrintDestination) async -> LeakReport {
    let exportDirectory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canary-demo-inspector-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: exportDirectory) }
    let inspector = NetworkInspector()
    let sinks: [any LeakSink] = [
      FileSink(name: "export", urls: [exportDirectory], relativeTo: exportDirectory)
    ]
    return await runScope(
      title: "network-inspector", configuration: configuration(sinks: sinks, printing: printing),
      kinds: kinds,
      transport: { _ in .urlSession(inspector.makeSession()) },
      afterwards: { _ in try inspector.export(to: exportDirectory) })
  }
}

/// Flushes C stdio's output buffers, where Swift's `print` writes.
func fflushStandardOutput() {
  fflush(nil)
}

/// A URL cache held in memory only.
func makeMemoryURLCache() -> URLCache {
  #if canImport(FoundationNetworking)
    URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, diskPath: nil)
  #else
    URLCache(memoryCapacity: 8 << 20, diskCapacity: 0, directory: nil)
  #endif
}

import CanaryTrap
import CanaryTrapTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the adapter tests do inside a scope: plant a header canary, really send it to the scope's
/// server through URLSession (so it is delivered), and log either it or a harmless line.
enum AdapterScenario {
  /// No standard stream capture and no report files, so that only the memory log is judged.
  static let quiet = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)

  /// The start of the message a header canary logged in plain text produces.
  static let leakMessage =
    "canary planted in request.header[X-Session] leaked into memory-log, in plain text, at line 1 col"

  /// Plants and delivers a canary into `log`'s scope, then logs it when `leak` is true.
  @discardableResult
  static func plantAndSend(in trap: CanaryTrap, log: MemoryLog, value: String, leak: Bool)
    async throws -> String
  {
    var request = URLRequest(url: trap.baseURL.appendingPathComponent("profile"))
    request.setValue(value, forHTTPHeaderField: "X-Session")
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.timeoutIntervalForRequest = 10
    _ = try await Transport.urlSession(URLSession(configuration: configuration)).send(request)
    log.write(leak ? "GET /profile session=\(value)" : "GET /profile")
    return value
  }

  /// The file of ``run(in:leak:)``, whose canary's issues point there.
  static let fileID = #fileID
  /// The line of ``run(in:leak:)`` that plants its canary: where its leak's issue points.
  static let runPlantingLine = #line + 5
  /// Plants, delivers and (when `leak`) logs a header canary in `trap`.
  @discardableResult
  static func run(in trap: CanaryTrap, leak: Bool) async throws -> String {
    let log = trap.memoryLog()
    let value = trap.canary(.token, at: .requestHeader("X-Session"))
    return try await plantAndSend(in: trap, log: log, value: value, leak: leak)
  }

  /// A transport that sends through URLSession after logging the request's method, path and
  /// every header into `log`: it leaks every header canary.
  static func loggingTransport(into log: MemoryLog) -> Transport {
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.timeoutIntervalForRequest = 10
    let inner = Transport.urlSession(URLSession(configuration: configuration))
    return Transport { request in
      let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
        .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      log.write("\(request.httpMethod ?? "GET") \(request.url?.path ?? "/") \(headers)")
      return try await inner.send(request)
    }
  }

  /// A report with one problem of every kind: two leaks, an undelivered canary, a silent source
  /// and an error.
  static let problemReport: LeakReport = {
    let header = Canary(value: "cnryADAPTERheader01", location: .requestHeader("X-Session"))
    let cookie = Canary(value: "cnryADAPTERcookie02", location: .responseCookie("sid"))
    return LeakReport(
      title: "fixed",
      canaries: [header, cookie],
      findings: [
        LeakFinding(
          canary: header, encoding: "base64", source: "app.log", line: 3, column: 17, offset: 40,
          excerpt: "auth=Y25yeUFEQVBURVJoZWFkZXIwMQ=="),
        LeakFinding(
          canary: header, encoding: "raw", source: "stdout", line: 1, column: 1, offset: 0,
          excerpt: "cnryADAPTERheader01"),
      ],
      sources: [
        ScannedSource(name: "app.log", bytes: 90),
        ScannedSource(name: "stdout", bytes: 19),
        ScannedSource(name: "export.csv", bytes: 0, status: .silent(reason: "no bytes written")),
      ],
      deliveries: [
        CanaryDelivery(canary: header, status: .delivered),
        CanaryDelivery(canary: cookie, status: .undelivered(reason: "no Set-Cookie reached the app")),
      ],
      errors: ["transport threw"])
  }()

  /// The messages ``problemReport`` must produce, one per problem.
  static let problemMessages = [
    "canary planted in request.header[X-Session] leaked into app.log, base64-encoded, at line 3 col 17:"
      + " \"auth=Y25yeUFEQVBURVJoZWFkZXIwMQ==\"",
    "canary planted in request.header[X-Session] leaked into stdout, in plain text, at line 1 col 1:"
      + " \"cnryADAPTERheader01\"",
    "canary planted in response.cookie[sid] was never delivered (no Set-Cookie reached the app),"
      + " so this run cannot show whether it would leak",
    "export.csv heard nothing of this run (no bytes written), so a leak there would go unseen",
    "the run failed: transport threw",
  ]
}

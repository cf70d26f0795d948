import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The app of the fault tests: fetches a token with a session header over a real `URLSession`,
/// swallows any error into its log, and lets the scope observe what it sent and got back.
enum FaultyApp {
  /// A fresh ephemeral session that gives up after `timeout` seconds.
  static func session(timeout: TimeInterval = 5) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    return URLSession(configuration: configuration)
  }

  /// What one fault exchange produced.
  struct Outcome {
    var report: LeakReport
    var appError: String?
    var sessionCanary: String
    var tokenCanary: String
  }

  /// Scripts `GET /token` to answer a JSON body with a response-side canary, changed by `script`
  /// (a fault, a delay), sends one request carrying a request-side canary, and finishes the scope.
  /// The app never rethrows, so only the scope can tell that the exchange broke. With
  /// `observeResponses` the app reports what it sent and got back, after a healthy `GET /ping`.
  static func exchange(
    timeout: TimeInterval = 5, observeResponses: Bool = true,
    _ script: @escaping @Sendable (ServerResponse) -> ServerResponse
  ) async -> Outcome {
    let quiet = CanaryTrap.Configuration(captureStandardStreams: false)
    let values = Locked<(String, String, String?)>(("", "", nil))
    let (_, report) = await CanaryTrap.withScope(title: "fault", configuration: quiet) { trap in
      let log = trap.memoryLog()
      let sessionValue = trap.canary(.token, at: .requestHeader("X-Session"))
      let token = trap.canary(.token, at: .responseBody(.json("token")))
      trap.server.on(.get, "/token", respond: script(.json(#"{"pad":"\#(padding)","token":"\#(token)"}"#)))
      let session = session(timeout: timeout)
      if observeResponses {  // one healthy exchange first, so the scope knows responses are observed
        trap.server.on(.get, "/ping", respond: .text("pong"))
        let ping = URLRequest(url: trap.baseURL.appendingPathComponent("ping"))
        trap.observe(request: ping)
        if let (data, response) = try? await Transport.urlSession(session).send(ping) {
          trap.observe(data, response)
        }
      }
      var request = URLRequest(url: trap.baseURL.appendingPathComponent("token"))
      request.setValue(sessionValue, forHTTPHeaderField: "X-Session")
      if observeResponses { trap.observe(request: request) }
      var appError: String?
      do {
        let (data, response) = try await Transport.urlSession(session).send(request)
        if observeResponses { trap.observe(data, response) }
        log.write("GET /token -> \((response as? HTTPURLResponse)?.statusCode ?? 0), \(data.count) bytes")
      } catch {
        appError = "\(error)"
        log.write("GET /token failed")
      }
      values.withLock { $0 = (sessionValue, token, appError) }
    }
    let (sessionValue, token, appError) = values.current
    return Outcome(report: report, appError: appError, sessionCanary: sessionValue, tokenCanary: token)
  }

  /// Padding before the token, so the half of the body a mid-body close sends never holds it.
  static let padding = String(repeating: "p", count: 64)
}

extension LeakReport {
  /// The delivery status of the canary `value`.
  func delivery(of value: String) -> CanaryDelivery.Status? {
    deliveries.first { $0.canary.value == value }?.status
  }
}

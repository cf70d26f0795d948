import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The smallest thing a scope must do to be able to come out clean: plant one canary and really
/// deliver it. A scope in which no canary was planted is inconclusive, so a "clean twin" that only
/// writes the tracer to its sinks plants this canary first, and stays clean only while no sink
/// holds it.
enum DeliveredCanary {
  /// Plants a token at `request.header[X-Twin-Token]`, sends it to the scope's server through a
  /// real URLSession (observed as the app's request and response), and returns its value.
  @discardableResult
  static func send(in trap: CanaryTrap) async throws -> String {
    let value = trap.canary(.token, at: .requestHeader("X-Twin-Token"))
    var request = URLRequest(url: trap.baseURL.appendingPathComponent("\(trap.tracer)/twin"))
    request.setValue(value, forHTTPHeaderField: "X-Twin-Token")
    trap.observe(request: request)
    let session = TestTransports.session()
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await Transport.urlSession(session).send(request)
    trap.observe(data, response)
    return value
  }
}

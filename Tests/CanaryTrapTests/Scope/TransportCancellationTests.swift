import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Requests cancelled as they start, on a session with a URL cache (as `.ephemeral` has):
/// FoundationNetworking traps the whole process ("task not in the registry") when such a task is
/// cancelled during its cache lookup, which once failed a full run. The transport answers the
/// awaiting task with `URLError(.cancelled)` itself there, and leaves the session task to end.
@Suite struct TransportCancellationTests {
  @Test func requestsCancelledAsTheyStartEndCancelledWithoutATrap() async throws {
    let server = try makeServer()
    defer { server.stop() }
    let transport = Transport.urlSession(URLSession(configuration: .ephemeral))
    let url = server.baseURL.appendingPathComponent("cancelled")
    var cancelled = 0
    for round in 0..<300 {
      let task = Task { try await transport.send(URLRequest(url: url)) }
      if round % 2 == 1 { await Task.yield() }
      task.cancel()
      do {
        _ = try await task.value
      } catch let error as URLError where error.code == .cancelled {
        cancelled += 1
      }
    }
    // Most are cancelled; one that answered first is not an error.
    #expect(cancelled > 150, "\(cancelled) of 300 cancelled")
    // The twin: not cancelled, the same transport answers.
    let (_, response) = try await transport.send(URLRequest(url: url))
    #expect(response is HTTPURLResponse)
  }
}

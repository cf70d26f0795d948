import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What this platform's URLSession does with the streaming exchanges CanaryTrap cannot plant yet,
/// recorded so that a toolchain that starts to support them fails here and gets noticed.
@Suite("Streaming support of this platform's URLSession")
struct PlatformStreamingTests {
  @Test("a WebSocket task: what reaches the loopback server, and how the task ends")
  func webSocketTask() async throws {
    let server = LoopbackServer()
    try server.start()
    defer { server.stop() }
    let url = URL(string: "ws://127.0.0.1:\(server.port)/socket?token=cnryWebSocketProbe")!
    let session = TestTransports.session()
    let task = session.webSocketTask(with: url)
    task.resume()
    let outcome: String
    do {
      _ = try await task.receive()
      outcome = "received a message"
    } catch {
      outcome = "failed: \((error as NSError).code)"
    }
    task.cancel()
    let upgrades = server.requests.filter { $0.headers["Upgrade"]?.lowercased() == "websocket" }
    #if canImport(FoundationNetworking)
      // A libcurl built without WebSockets (Debian's and Ubuntu's) fails the task with
      // NSURLErrorUnsupportedURL ("WebSockets not supported by libcurl") before any byte is sent.
      // When this fails, the toolchain or libcurl gained WebSockets: plant them through URLSession.
      #expect(outcome == "failed: \(NSURLErrorUnsupportedURL)")
      #expect(upgrades.count == 0, "FoundationNetworking sent \(upgrades.count) WebSocket handshakes")
    #else
      // Apple's URLSession sends the handshake; the server answers 404, so the task fails.
      #expect(outcome.hasPrefix("failed"))
      #expect(upgrades.count == 1)
    #endif
  }
}

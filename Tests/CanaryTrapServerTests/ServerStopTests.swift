import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// Stopping a server that is busy, from two threads at once, ends it cleanly. A stop once wrote to
/// the wake pipe after the loop had closed its read end, which raised SIGPIPE and killed the test
/// process (once, in the thread-sanitized pass); the window is too narrow to open on demand, so this
/// only exercises the path that now writes before the loop can see the flag.
@Suite struct ServerStopTests {
  @Test func stoppingABusyServerFromTwoThreadsNeverWritesToItsClosedPipe() throws {
    for _ in 0..<40 {
      let server = try makeServer()
      server.on(.get, "/", respond: .text("ok"))
      let client = try RawClient(port: server.port)
      // Ten pipelined requests keep the loop mid-turn while the two stops race it.
      client.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: 10))
      DispatchQueue.concurrentPerform(iterations: 2) { _ in server.stop() }
      #expect(server.port > 0)
    }
  }

  @Test func aStoppedServerStopsAgainWithoutWaiting() throws {
    let server = try makeServer()
    server.stop()
    let start = ContinuousClock.now
    server.stop()
    #expect(ContinuousClock.now - start < .seconds(1))
  }
}

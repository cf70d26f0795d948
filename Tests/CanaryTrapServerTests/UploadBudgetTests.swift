import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

/// The server-wide budget of buffered request bytes: parallel uploads past it wait (TCP holds
/// their clients back) and all complete; the server never holds much more than the budget.
@Suite("upload budget")
struct UploadBudgetTests {
  static let uploads = 6
  static let bodyBytes = 1 << 20

  /// Sends `uploads` POSTs of `bodyBytes` in parallel, one client thread each, and returns the
  /// status line and echoed body size of each answer (nil when none came).
  static func uploadInParallel(to server: LoopbackServer) -> [String?] {
    let answers = Locked([String?](repeating: nil, count: uploads))
    let group = DispatchGroup()
    let body = [UInt8](repeating: UInt8(ascii: "u"), count: bodyBytes)
    for index in 0..<uploads {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        guard let client = try? RawClient(port: server.port, receiveTimeout: 20) else { return }
        client.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: \(bodyBytes)\r\n\r\n")
        guard client.send(body) == 0, let answer = client.readResponse() else { return }
        let status = answer.split(separator: "\r\n").first.map(String.init) ?? ""
        let echoed = answer.components(separatedBy: "\r\n\r\n").last ?? ""
        answers.withLock { $0[index] = "\(status) \(echoed)" }
      }
      thread.start()
    }
    group.wait()
    return answers.current
  }

  static func makeUploadServer(budget: Int?) throws -> LoopbackServer {
    let server = try makeServer { configuration in
      configuration.maxRecordedBytes = 0
      if let budget { configuration.maxBufferedRequestBytes = budget }
    }
    server.on(.post, "/up") { .text("\($0.body.count)") }
    return server
  }

  @Test func uploadsPastTheBudgetWaitAndAllComplete() throws {
    let budget = 256 * 1024
    let server = try Self.makeUploadServer(budget: budget)
    defer { server.stop() }
    let answers = Self.uploadInParallel(to: server)
    #expect(answers == Array(repeating: "HTTP/1.1 200 OK \(Self.bodyBytes)", count: Self.uploads))
    let counters = server.counters
    #expect(counters.budgetPauses > 0, "the budget held some upload back")
    // The budget, one whole request past it (the holder), and the small allowance per connection.
    let bound = budget + Self.bodyBytes + 200 + Self.uploads * 2 * EventLoop.smallRequestAllowance
    #expect(counters.peakBufferedRequestBytes <= bound)
    #expect(counters.requestsTimedOut == 0 && counters.connectionsShed == 0)
  }

  @Test func uploadsUnderTheBudgetAreNeverHeldBack() throws {
    let server = try Self.makeUploadServer(budget: nil)
    defer { server.stop() }
    let answers = Self.uploadInParallel(to: server)
    #expect(answers == Array(repeating: "HTTP/1.1 200 OK \(Self.bodyBytes)", count: Self.uploads))
    let counters = server.counters
    #expect(counters.budgetPauses == 0)
    #expect(counters.peakBufferedRequestBytes >= Self.bodyBytes)
  }
}

import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Matrices take turns, in order, at most `limit` at once; a waiter that is cancelled leaves the
/// line without a turn; and a scope's time waiting for its matrix's turn does not count toward its
/// deadline.
@Suite("Matrices take turns", .timeLimit(.minutes(2)))
struct MatrixTurnsTests {
  @Test("at most the limit run at once; a turn given back goes to the longest waiting")
  func turnsAreTakenInOrder() async throws {
    let turns = MatrixTurns(limit: 1)
    #expect(await turns.take())
    let order = Locked([Int]())
    let first = Task {
      #expect(await turns.take())
      order.withLock { $0.append(1) }
      turns.give()
    }
    try await waitUntil { turns.counts.waiting == 1 }
    let second = Task {
      #expect(await turns.take())
      order.withLock { $0.append(2) }
      turns.give()
    }
    try await waitUntil { turns.counts.waiting == 2 }
    #expect(turns.counts.running == 1)
    turns.give()
    await first.value
    await second.value
    #expect(order.withLock { $0 } == [1, 2])
    #expect(turns.counts.running == 0 && turns.counts.waiting == 0)
  }

  @Test("a waiter that is cancelled leaves the line without a turn")
  func cancelledWaiterGetsNoTurn() async throws {
    let turns = MatrixTurns(limit: 1)
    #expect(await turns.take())
    let waiter = Task { await turns.take() }
    try await waitUntil { turns.counts.waiting == 1 }
    waiter.cancel()
    #expect(await waiter.value == false)
    #expect(turns.counts.running == 1 && turns.counts.waiting == 0)
    turns.give()
    #expect(turns.counts.running == 0 && turns.counts.waiting == 0)
  }

  @Test("a scope whose matrix waited for its turn past its deadline sends every request")
  func waitingForATurnDoesNotCountTowardTheDeadline() async throws {
    // Hold every turn of the process for longer than the scope's deadline and its grace.
    var held = 0
    for _ in 0..<MatrixTurns.shared.limit where await MatrixTurns.shared.take() { held += 1 }
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: false, reportDirectory: nil, scopeDeadline: .seconds(1))
    let trap = CanaryTrap(title: "waited-for-a-turn", configuration: configuration)
    let session = TestTransports.session()
    defer { session.invalidateAndCancel() }
    try await trap.start()
    let matrix = Task {
      try await trap.runMatrix(
        through: TestTransports.routeOnly(.urlSession(session), into: trap.memoryLog()), kinds: [.getQuery])
    }
    try await Task.sleep(for: .milliseconds(2_500))
    for _ in 0..<held { MatrixTurns.shared.give() }
    let result = try await matrix.value
    let report = await trap.finish()
    #expect(result.kinds.flatMap(\.errors).isEmpty)
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  /// Polls `condition` every 10 ms for up to 5 s.
  private func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    #expect(condition())
  }
}

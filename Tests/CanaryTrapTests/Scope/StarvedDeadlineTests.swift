import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Before a deadline calls work late, jobs already waiting for a cooperative thread run first:
/// work whose transport returned while other tests held every thread is not called unfinished.
@Suite("A deadline lets queued work finish before calling it late")
struct StarvedDeadlineTests {
  @Test("work queued behind threads held by others settles before the wait ends")
  func queuedWorkSettlesFirst() async {
    let settled = Locked(false)
    // More blockers than cooperative threads: some hold the threads, the rest queue.
    for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
      Task { usleep(400_000) }
    }
    // The work's continuation, queued behind them (the transport returned; its task has not run).
    Task { settled.withLock { $0 = true } }
    await Deadline.waitWhileStarved(until: .now + .seconds(20)) { settled.current }
    #expect(settled.current)
  }

  @Test("twin: work that never settles is called late by the limit, starved or not")
  func unsettledWorkEndsAtTheLimit() async {
    let limit = ContinuousClock.now + .seconds(2)
    await Deadline.waitWhileStarved(until: limit) { false }
    #expect(ContinuousClock.now < limit + .seconds(30))
  }
}

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

  @Test("twin: past the limit, unsettled work is called late at once, without waiting")
  func pastTheLimitEndsAtOnce() async {
    let asked = Locked(0)
    await Deadline.waitWhileStarved(until: .now - .seconds(1)) {
      asked.withLock { $0 += 1 }
      return false
    }
    #expect(asked.current == 1)
  }
}

import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The rule: a scope's deadline counts time the process could run. In a parallel test run on few
/// cores, other tests' synchronous work can hold every cooperative thread for longer than a whole
/// deadline; a scope stalled that long is not inconclusive for it. Each case stalls the process
/// past the deadline; its twin is suspended instead, past the latest any credit could move the
/// deadline (five times its length), so a stall elsewhere in a parallel run cannot save it.
@Suite(
  "A stall of the process does not count toward the scope's deadline", .serialized, .timeLimit(.minutes(2)))
struct ScopeStallTests {
  /// How the body spends the time after it starts its scope: holding every cooperative thread, or
  /// suspended.
  enum Wait: String, CaseIterable, CustomTestStringConvertible {
    case stall, sleep
    var testDescription: String { rawValue }

    /// Starts `trap`, then stalls the process for `stall` (every other thread held from before the
    /// start, so the deadline's watch never runs until the stall ends), or sleeps past five times
    /// `deadline` and its grace.
    func start(_ trap: CanaryTrap, stall: Duration, deadline: Duration) async throws {
      switch self {
      case .stall:
        let held = CooperativeStall.holdOtherThreads()
        do { try await trap.start() } catch {
          held.release()
          throw error
        }
        held.holdThisThread(for: stall)
      case .sleep:
        try await trap.start()
        try await Task.sleep(for: deadline * 4 + .seconds(6))
      }
    }
  }

  private func configuration(deadline: Duration) -> CanaryTrap.Configuration {
    CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil, scopeDeadline: deadline)
  }

  /// A deadline of 1 s with its grace of as much again acts at 2 s; the stall of 3 s outlasts both.
  @Test(
    "a body stalled past the deadline is judged on what it did; suspended past it, it is inconclusive",
    arguments: Wait.allCases)
  func bodyStalledPastTheDeadline(_ wait: Wait) async throws {
    let trap = CanaryTrap(title: "stalled-body", configuration: configuration(deadline: .seconds(1)))
    try await wait.start(trap, stall: .seconds(3), deadline: .seconds(1))
    _ = try? await DeliveredCanary.send(in: trap)  // after the deadline, the server is stopped
    trap.memoryLog().write("GET /\(trap.tracer)/twin 200")
    let report = await trap.finish()
    switch wait {
    case .stall: #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
    case .sleep:
      #expect(report.verdict == .inconclusive)
      #expect(report.errors.first?.hasPrefix("the scope's deadline of 1.0 seconds passed while") == true)
    }
  }

  /// A deadline of 2 s; the stall of 3 s outlasts it, and the matrix sends after the stall.
  @Test(
    "a matrix stalled past the deadline sends every request; suspended past it, it sends none",
    arguments: Wait.allCases)
  func matrixStalledPastTheDeadline(_ wait: Wait) async throws {
    let trap = CanaryTrap(title: "stalled-matrix", configuration: configuration(deadline: .seconds(2)))
    let session = TestTransports.session()
    defer { session.invalidateAndCancel() }
    try await wait.start(trap, stall: .seconds(3), deadline: .seconds(2))
    let log = trap.memoryLog()
    let result = try await trap.runMatrix(
      through: TestTransports.routeOnly(.urlSession(session), into: log), kinds: [.getQuery])
    let report = await trap.finish()
    let errors = result.kinds.flatMap(\.errors)
    switch wait {
    case .stall:
      #expect(errors.isEmpty)
      #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
    case .sleep:
      #expect(
        errors.first?.hasSuffix("was not sent: the scope's deadline of 2.0 seconds had passed") == true,
        "\(errors)")
      #expect(report.verdict == .inconclusive)
    }
  }

  /// The matrix reads the deadline before each request; after a stall it may run before the
  /// watch, which is as overdue as it was, so whoever reads first credits the stall.
  @Test(
    "an overdue watch's stall is credited once, by whoever reads first, and not while the matrix waits its turn"
  )
  func overdueWatchIsCreditedOnce() {
    let start = ContinuousClock.now
    func stalledScope() -> ScopeState {
      var state = ScopeState()
      state.phase = .started
      state.deadline = start + .seconds(2)
      state.watchDue = start + .milliseconds(200)
      state.stallCredit = StallCredit(allowance: .seconds(8))
      return state
    }
    var state = stalledScope()
    #expect(state.creditStall(now: start + .seconds(3)) == start + .milliseconds(4_800))
    #expect(state.creditStall(now: start + .milliseconds(3_020)) == start + .milliseconds(4_800))
    #expect(state.watchDue == start + .seconds(3))

    var waiting = stalledScope()
    waiting.turnWaitBegan = start + .seconds(1)
    #expect(waiting.creditStall(now: start + .seconds(3)) == start + .milliseconds(2_800))

    var unwatched = stalledScope()
    unwatched.watchDue = nil
    #expect(unwatched.creditStall(now: start + .seconds(3)) == start + .seconds(2))
    var finishing = stalledScope()
    finishing.phase = .finishing
    #expect(finishing.creditStall(now: start + .seconds(3)) == start + .seconds(2))
  }

  @Test("the stall credit counts only late wakes, and never more than its allowance")
  func creditIsBounded() {
    var credit = StallCredit(allowance: .seconds(3))
    #expect(credit.credit(lateness: .milliseconds(20)) == .zero)
    #expect(credit.credit(lateness: .seconds(2)) == .seconds(2))
    #expect(credit.credit(lateness: .seconds(2)) == .seconds(1))
    #expect(credit.credit(lateness: .seconds(2)) == .zero)
    #expect(credit.remaining == .zero)
  }
}

/// Holds every thread of Swift's cooperative pool, as other tests' synchronous work does.
final class CooperativeStall: Sendable {
  private let released = DispatchSemaphore(value: 0)
  private let others: Int

  private init(others: Int) { self.others = others }

  /// Blocks every cooperative thread but this one, each with a task that waits for ``release()``,
  /// and returns once all of them are held (or after 30 s, when other work kept one from starting).
  static func holdOtherThreads() -> CooperativeStall {
    let stall = CooperativeStall(others: max(0, ProcessInfo.processInfo.activeProcessorCount - 1))
    let started = DispatchSemaphore(value: 0)
    for _ in 0..<stall.others {
      Task.detached {
        started.signal()
        stall.waitForRelease()
      }
    }
    for _ in 0..<stall.others { _ = started.wait(timeout: .now() + .seconds(30)) }
    return stall
  }

  /// Blocks this thread too for `duration`, then lets the others go.
  func holdThisThread(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    release()
  }

  private func waitForRelease() { released.wait() }

  /// Lets the held threads go.
  func release() {
    for _ in 0..<others { released.signal() }
  }
}

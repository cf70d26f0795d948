import Testing

@testable import CanaryTrap

/// The rule: a request deadline counts time the process could run; a stall the timer sees (it
/// woke late) or a late start of the work is given back, never past twice the deadline's length.
@Suite("A deadline does not count time the process was stalled")
struct StallTolerantScheduleTests {
  private let launched = ContinuousClock.now
  private var deadline: ContinuousClock.Instant { launched + .seconds(5) }

  @Test("a timer that wakes on time, with the work running since launch, expires")
  func onTimeExpires() {
    var schedule = StallTolerantSchedule(launched: launched, deadline: deadline)
    let extended = schedule.extend(wokeAt: deadline + .milliseconds(10), workStarted: launched)
    #expect(!extended)
  }

  @Test("twin: a timer that wakes 2 s late gives the work those 2 s back")
  func lateTimerExtends() {
    var schedule = StallTolerantSchedule(launched: launched, deadline: deadline)
    let woke = deadline + .seconds(2)
    let extended = schedule.extend(wokeAt: woke, workStarted: launched)
    #expect(extended)
    #expect(schedule.target == woke + .seconds(2))
  }

  @Test("work that started 4 s after launch gets its whole length from its start")
  func lateStartExtends() {
    var schedule = StallTolerantSchedule(launched: launched, deadline: deadline)
    let started = launched + .seconds(4)
    let extended = schedule.extend(wokeAt: deadline, workStarted: started)
    #expect(extended)
    #expect(schedule.target == started + .seconds(5))
    let extendedAgain = schedule.extend(wokeAt: started + .seconds(5), workStarted: started)
    #expect(!extendedAgain)
  }

  @Test("work that has not started when the timer fires is waited for a little longer")
  func unstartedWorkIsWaitedFor() {
    var schedule = StallTolerantSchedule(launched: launched, deadline: deadline)
    let extended = schedule.extend(wokeAt: deadline, workStarted: nil)
    #expect(extended)
    #expect(schedule.target == deadline + Deadline.stallThreshold)
  }

  @Test("stalls never move the deadline past twice its length: work that never ends still expires")
  func hardLimitHolds() {
    var schedule = StallTolerantSchedule(launched: launched, deadline: deadline)
    #expect(schedule.hardLimit == launched + .seconds(10))
    var now = deadline
    var wakes = 0
    while schedule.extend(wokeAt: now, workStarted: nil) {
      #expect(schedule.target <= schedule.hardLimit)
      now = schedule.target + .seconds(2)
      wakes += 1
    }
    #expect(wakes < 100)
    #expect(now >= schedule.hardLimit)
  }
}

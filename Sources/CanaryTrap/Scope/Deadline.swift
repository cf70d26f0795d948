import CanaryTrapPrimitives

/// Runs work that may never finish (a transport the app owns) with a deadline: past it, the work's
/// task is cancelled and the caller moves on at once, whether or not the work honours cancellation.
///
/// The deadline counts time the process could run. When the timer itself wakes late, the process
/// was stalled (every cooperative thread blocked by other tests, a paused machine), and the time it
/// was late is added back, as is the time the work waited to start; both together at most once
/// more the deadline's own length, so work that never ends still ends the wait.
enum Deadline {
  /// How a bounded piece of work ended.
  enum Outcome<Value: Sendable>: Sendable {
    /// The work returned or threw before the deadline.
    case finished(Result<Value, any Error>)
    /// The deadline passed first; the work was cancelled.
    case expired
  }

  /// A timer that woke up later than this after its deadline counts as evidence of a stall.
  static let stallThreshold: Duration = .milliseconds(250)

  /// The one-shot meeting point of the work, the timer and the waiting caller.
  private struct Meeting<Value: Sendable> {
    var outcome: Outcome<Value>?
    var waiter: CheckedContinuation<Outcome<Value>, Never>?
    var workStarted: ContinuousClock.Instant?
  }

  /// Runs `work` until it ends or `deadline` passes, whichever comes first, not counting time the
  /// process was stalled (see ``Deadline``) but never past `limit`; cancelling the caller cancels
  /// the work.
  static func run<Value: Sendable>(
    until deadline: ContinuousClock.Instant, notAfter limit: ContinuousClock.Instant? = nil,
    _ work: @escaping @Sendable () async throws -> Value
  ) async -> Outcome<Value> {
    let launched = ContinuousClock.now
    let meeting = Locked(Meeting<Value>())
    @Sendable func settle(_ value: Outcome<Value>) {
      let waiter = meeting.withLock { meeting -> CheckedContinuation<Outcome<Value>, Never>? in
        guard meeting.outcome == nil else { return nil }
        meeting.outcome = value
        defer { meeting.waiter = nil }
        return meeting.waiter
      }
      waiter?.resume(returning: value)
    }
    let worker = Task {
      meeting.withLock { $0.workStarted = .now }
      do { settle(.finished(.success(try await work()))) } catch { settle(.finished(.failure(error))) }
    }
    let timer = Task {
      var schedule = StallTolerantSchedule(launched: launched, deadline: deadline, notAfter: limit)
      while true {
        do { try await Task.sleep(until: schedule.target, clock: .continuous) } catch { return }
        let started = meeting.withLock { $0.workStarted }
        guard schedule.extend(wokeAt: .now, workStarted: started) else { break }
      }
      await waitWhileStarved(until: schedule.hardLimit) { meeting.withLock { $0.outcome != nil } }
      settle(.expired)
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let settled = meeting.withLock { meeting -> Outcome<Value>? in
          if let outcome = meeting.outcome { return outcome }
          meeting.waiter = continuation
          return nil
        }
        if let settled { continuation.resume(returning: settled) }
      }
    } onCancel: {
      worker.cancel()  // the work ends with its own cancellation error, or at the deadline
    }
    timer.cancel()
    if case .expired = result { worker.cancel() }
    return result
  }
}

extension Deadline {
  /// Before work is called late, lets every job already waiting for a thread run, for as long as
  /// the process is starved (a yield takes longer than the stall threshold to come back) and
  /// `settled` is false, but not past `limit`: the work's own continuation may be among those
  /// jobs (the transport returned, its task has not run yet), as when other tests hold every
  /// cooperative thread.
  static func waitWhileStarved(until limit: ContinuousClock.Instant, settled: () -> Bool) async {
    while !settled(), ContinuousClock.now < limit {
      let queued = ContinuousClock.now
      await Task.yield()
      guard ContinuousClock.now - queued > stallThreshold else { return }
    }
  }
}

/// When a deadline's timer should fire, moved later by the stalls it sees, within a hard limit.
struct StallTolerantSchedule: Sendable {
  /// When the timer next wakes.
  private(set) var target: ContinuousClock.Instant
  /// The latest the timer may ever fire: the deadline plus once more its own length, or the limit.
  let hardLimit: ContinuousClock.Instant
  private let launched: ContinuousClock.Instant
  private let length: Duration
  private var startCredited = false

  /// A schedule for work launched at `launched` that must end by `deadline`, and whatever the
  /// stalls, by `limit` when one is given.
  init(
    launched: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
    notAfter limit: ContinuousClock.Instant? = nil
  ) {
    self.launched = launched
    target = deadline
    length = max(.zero, deadline - launched)
    hardLimit = max(deadline, min(deadline + length, limit ?? deadline + length))
  }

  /// Moves the target later when the timer woke at `now` late by more than the stall threshold, or
  /// when the work started late or has not started; returns whether there is still time to wait.
  mutating func extend(wokeAt now: ContinuousClock.Instant, workStarted: ContinuousClock.Instant?)
    -> Bool
  {
    var next = target
    let lateness = now - target
    if lateness > Deadline.stallThreshold { next = now + lateness }
    if let workStarted {
      if !startCredited, workStarted - launched > Deadline.stallThreshold {
        startCredited = true
        next = max(next, workStarted + length)
      }
    } else {
      next = max(next, now + Deadline.stallThreshold)
    }
    next = min(next, hardLimit)
    guard next > now else { return false }
    target = next
    return true
  }
}

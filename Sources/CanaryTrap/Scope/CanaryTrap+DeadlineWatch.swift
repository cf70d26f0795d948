extension CanaryTrap {
  /// Starts watching the scope's deadline for what the matrix does not bound itself: a test body
  /// (or a caller that never calls ``finish()``) still running when ``Configuration/scopeDeadline``
  /// passes makes the run inconclusive, naming the deadline, and stops the scope's server so that
  /// every request waiting on it ends at once instead of hanging the test.
  ///
  /// The deadline counts time the process could run, as a request deadline does: the watch wakes
  /// every `watchTick` (or tenth of the deadline, when shorter), and the time each wake came late
  /// (every cooperative thread busy with other tests) moves the deadline later, by at most four
  /// times the deadline's own length in all (see ``StallCredit``), so a body that never ends still
  /// ends the scope. Time the scope's matrix waits for its turn (see ``MatrixTurns``) does not
  /// count either. The matrix reads the moved deadline before each request it sends.
  ///
  /// The watch acts `deadlineGrace` (or the deadline's length, when shorter) after the deadline,
  /// so that a matrix, which bounds its own requests by the same deadline, reports first and lets
  /// its body return. Work that waits on nothing the scope owns (a sleep, another server) is not
  /// interrupted: the scope cannot cancel a body it does not run, but its report still says the
  /// deadline passed.
  func watchDeadline() {
    let length = configuration.scopeDeadline
    let tick = min(Self.watchTick, length / 10)
    // Due from now, not from when the task first runs: a watch that waits for a thread from the
    // start has seen the process stalled since the scope started.
    state.withLock { state in
      state.watchDue = ContinuousClock.now + tick
      state.stallCredit = StallCredit(allowance: length * 4)
    }
    let watch = Task { [weak self] in
      let grace = min(Self.deadlineGrace, length)
      while let target = self?.state.withLock({ $0.watchDue }) {
        do { try await Task.sleep(until: target, clock: .continuous) } catch { return }
        let now = ContinuousClock.now
        let step = self?.state.withLock { state -> WatchStep in
          guard let deadline = state.creditStall(now: now), state.phase == .started else { return .stop }
          // While its matrix waits for a turn, the scope's deadline stands still (the matrix moves
          // it by the whole wait when its turn comes).
          let acts = deadline + grace
          let waiting = state.turnWaitBegan != nil
          state.watchDue = waiting ? now + tick : now < acts ? min(now + tick, acts) : nil
          return state.watchDue == nil ? .act : .wake
        }
        guard let step, step != .stop else { return }
        if step == .act { break }
      }
      // The body's own continuation may be waiting for a thread; let it run first.
      let limit = ContinuousClock.now + length
      await Deadline.waitWhileStarved(until: limit) { self?.state.withLock { $0.phase != .started } ?? true }
      guard !Task.isCancelled else { return }
      self?.deadlinePassed()
    }
    state.withLock { $0.deadlineWatch = watch }
  }

  /// What the deadline's watch does after a wake: sleeps until it is next due, acts on the passed
  /// deadline, or stops because the scope no longer runs.
  private enum WatchStep { case wake, act, stop }

  /// How long after the scope's deadline the watch acts, unless the deadline itself is shorter.
  static let deadlineGrace = Duration.seconds(3)
  /// How often the watch wakes to see whether the process was stalled, unless a tenth of the
  /// deadline is shorter; a stall shorter than that can go unseen.
  static let watchTick = Duration.seconds(1)

  /// Records that the deadline passed while the scope was still running, then stops its server.
  func deadlinePassed() {
    let wasRunning = state.withLock { state -> Bool in
      guard state.phase == .started else { return false }
      state.errors.append(.deadlinePassed(configuration.scopeDeadline))
      return true
    }
    if wasRunning { server.stop() }
  }
}

extension ScopeState {
  /// Credits the stall an overdue watch shows at `now`, moving the deadline later, and returns the
  /// deadline: the watch calls it when it wakes, and the matrix before each request, so a stall is
  /// given back even when the matrix runs before the watch that would have seen it.
  ///
  /// Only a stall before the matrix began to wait for its turn counts; the wait itself is given
  /// back when the turn comes.
  mutating func creditStall(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    guard let due = watchDue, phase == .started, let deadline else { return deadline }
    let seen = min(now, turnWaitBegan ?? now)
    let stalled = stallCredit.credit(lateness: seen - due)
    guard stalled > .zero else { return deadline }
    watchDue = seen
    self.deadline = deadline + stalled
    return self.deadline
  }
}

/// The time a scope's deadline gives back for stalls of the process, within an allowance.
///
/// A timer that wakes later than ``threshold`` after it was due saw the process stalled for that
/// long (no cooperative thread free to run it, a paused machine); that lateness is credited, until
/// the allowance is spent, so a body that never ends still ends the scope.
struct StallCredit: Sendable {
  /// A timer later than this shows a stall; an idle machine wakes one within a millisecond or two.
  static let threshold: Duration = .milliseconds(50)
  /// What may still be credited.
  private(set) var remaining: Duration

  /// A credit of at most `allowance` in all.
  init(allowance: Duration) { remaining = max(.zero, allowance) }

  /// Credits a timer's `lateness` when it shows a stall, and returns what was credited.
  mutating func credit(lateness: Duration) -> Duration {
    guard lateness > Self.threshold else { return .zero }
    let credited = min(lateness, remaining)
    remaining -= credited
    return credited
  }
}

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
    let firstWake = ContinuousClock.now + tick
    let watch = Task { [weak self] in
      let grace = min(Self.deadlineGrace, length)
      var credit = StallCredit(allowance: length * 4)
      var target = firstWake
      while true {
        do { try await Task.sleep(until: target, clock: .continuous) } catch { return }
        let now = ContinuousClock.now
        // While its matrix waits for a turn, the scope's deadline stands still (the matrix moves
        // it by the whole wait when its turn comes); only a stall before the wait is credited.
        let waitBegan = self?.state.withLock { $0.turnWaitBegan }
        let waiting = waitBegan != nil
        let stalled = credit.credit(lateness: min(now, waitBegan ?? now) - target)
        guard let deadline = self?.postpone(by: stalled) else { return }
        let acts = deadline + grace
        guard waiting || now < acts else { break }
        target = waiting ? now + tick : min(now + tick, acts)
      }
      // The body's own continuation may be waiting for a thread; let it run first.
      let limit = ContinuousClock.now + length
      await Deadline.waitWhileStarved(until: limit) { self?.state.withLock { $0.phase != .started } ?? true }
      guard !Task.isCancelled else { return }
      self?.deadlinePassed()
    }
    state.withLock { $0.deadlineWatch = watch }
  }

  /// How long after the scope's deadline the watch acts, unless the deadline itself is shorter.
  static let deadlineGrace = Duration.seconds(3)
  /// How often the watch wakes to see whether the process was stalled, unless a tenth of the
  /// deadline is shorter; a stall shorter than that can go unseen.
  static let watchTick = Duration.seconds(1)

  /// Moves the deadline `stalled` later and returns it, or `nil` once the scope is no longer running.
  private func postpone(by stalled: Duration) -> ContinuousClock.Instant? {
    state.withLock { state in
      guard state.phase == .started, let deadline = state.deadline else { return nil }
      state.deadline = deadline + stalled
      return state.deadline
    }
  }

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

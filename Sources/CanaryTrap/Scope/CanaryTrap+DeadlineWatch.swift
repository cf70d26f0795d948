extension CanaryTrap {
  /// Starts watching the scope's deadline for what the matrix does not bound itself: a test body
  /// (or a caller that never calls ``finish()``) still running when ``Configuration/scopeDeadline``
  /// passes makes the run inconclusive, naming the deadline, and stops the scope's server so that
  /// every request waiting on it ends at once instead of hanging the test.
  ///
  /// The watch acts `deadlineGrace` after the deadline, so that a matrix, which bounds its own
  /// requests by the same deadline, reports first and lets its body return. Work that waits on
  /// nothing the scope owns (a sleep, another server) is not interrupted: the scope cannot cancel
  /// a body it does not run, but its report still says the deadline passed.
  func watchDeadline() {
    let watch = Task { [weak self] in
      guard let deadline = self?.state.withLock({ $0.deadline }) else { return }
      try? await Task.sleep(until: deadline + Self.deadlineGrace, clock: .continuous)
      guard !Task.isCancelled else { return }
      self?.deadlinePassed()
    }
    state.withLock { $0.deadlineWatch = watch }
  }

  /// How long after the scope's deadline the watch acts.
  static let deadlineGrace = Duration.seconds(3)

  /// Records that the deadline passed while the scope was still running, then stops its server.
  func deadlinePassed() {
    let message =
      "the scope's deadline of \(configuration.scopeDeadline) passed while its test body was still running:"
      + " its server was stopped, so what the body did after that is unproven"
    let wasRunning = state.withLock { state -> Bool in
      guard state.phase == .started else { return false }
      state.errors.append(message)
      return true
    }
    if wasRunning { server.stop() }
  }
}

/// Runs work that may never finish (a transport the app owns) with a deadline: past it, the work's
/// task is cancelled and the caller moves on at once, whether or not the work honours cancellation.
enum Deadline {
  /// How a bounded piece of work ended.
  enum Outcome<Value: Sendable>: Sendable {
    /// The work returned or threw before the deadline.
    case finished(Result<Value, any Error>)
    /// The deadline passed first; the work was cancelled.
    case expired
  }

  /// The one-shot meeting point of the work, the timer and the waiting caller.
  private struct Meeting<Value: Sendable> {
    var outcome: Outcome<Value>?
    var waiter: CheckedContinuation<Outcome<Value>, Never>?
  }

  /// Runs `work` until it ends or `deadline` passes, whichever comes first; cancelling the caller
  /// cancels the work.
  static func run<Value: Sendable>(
    until deadline: ContinuousClock.Instant,
    _ work: @escaping @Sendable () async throws -> Value
  ) async -> Outcome<Value> {
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
      do { settle(.finished(.success(try await work()))) } catch { settle(.finished(.failure(error))) }
    }
    let timer = Task {
      try? await Task.sleep(until: deadline, clock: .continuous)
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

/// The loop's timers: delayed responses, the deadline sweep and the pause after running out of
/// descriptors. They run on the I/O thread between two waits.
extension EventLoop {
  /// How often deadlines are checked: a quarter of the shortest one, between 10 ms and 500 ms.
  var sweepInterval: UInt64 {
    let shortest = min(idleTimeout, requestHeadTimeout, requestBodyTimeout)
    return min(max(shortest / 4, 10_000_000), 500_000_000)
  }

  func timeoutUntilNextTimer() -> Int32 {
    var deadline = min(nextSweep, acceptPausedUntil ?? nextSweep)
    for fd in delayed {
      if let readyAt = connections[fd]?.queue.first?.readyAt, readyAt < deadline { deadline = readyAt }
    }
    let now = LoopTime.now()
    if deadline <= now { return 0 }
    return Int32(min((deadline - now) / 1_000_000 + 1, 60_000))
  }

  func runTimers() {
    assertOnLoopThread()
    loopTime = LoopTime.now()
    let now = loopTime
    if let paused = acceptPausedUntil, paused <= now {
      acceptPausedUntil = nil
      poller.update(listener.fd, readable: true, writable: false)
    }
    for fd in delayed {
      if let connection = connections[fd], let readyAt = connection.queue.first?.readyAt, readyAt <= now {
        flush(connection)
      }
    }
    guard now >= nextSweep else { return }
    nextSweep = now + sweepInterval
    for connection in Array(connections.values) { checkDeadlines(connection, now: now) }
  }

  /// Closes or times out `connection` when one of its deadlines passed: draining, idle, a head or
  /// body too slow, or a client that stopped reading what it asked for.
  private func checkDeadlines(_ connection: Connection, now: UInt64) {
    if case .draining(let until) = connection.phase {
      if until <= now { closeConnection(connection) }
      return
    }
    // Held back by the server's budget: the wait is not the client's; its clocks restart on resume.
    if connection.pausedForBudget { return }
    let idleSince = connection.lastProgress + idleTimeout <= now
    if !connection.isQuiet {
      // Waiting for a delay is fine; waiting for the client to read is bounded by the idle timeout.
      if connection.watchesWritable && idleSince { closeConnection(connection) }
      return
    }
    if connection.hasUnparsedInput { return }
    if let started = connection.headStartedAt,
      started + requestHeadTimeout <= now
    {
      timeOut(connection, reason: "request head not complete within \(configuration.requestHeadTimeout)")
    } else if let started = connection.bodyStartedAt,
      started + requestBodyTimeout <= now
    {
      timeOut(connection, reason: "request body not complete within \(configuration.requestBodyTimeout)")
    } else if !connection.isMidRequest && idleSince {
      closeConnection(connection)
    }
  }

  /// Answers the partial request on `connection` with 408 and closes it.
  func timeOut(_ connection: Connection, reason: String) {
    assertOnLoopThread()
    guard connection.acceptsRequests, let failure = connection.parser.timeOut(reason: reason) else {
      return closeConnection(connection)
    }
    state.countTimedOut()
    recordFailure(failure, on: connection)
    connection.phase = .answeringLast
    connection.headStartedAt = nil
    connection.bodyStartedAt = nil
    enqueueFinalAnswer(failure, on: connection)
    flush(connection)
  }
}

/// The loop's timers: delayed responses, the idle sweep and the pause after running out of
/// descriptors. They run on the I/O thread between two waits.
extension EventLoop {
  var sweepInterval: Duration {
    min(max(configuration.idleTimeout / 4, .milliseconds(10)), .milliseconds(500))
  }

  func timeoutUntilNextTimer() -> Int32 {
    var deadline = min(nextSweep, acceptPausedUntil ?? nextSweep)
    for fd in delayed {
      if let readyAt = connections[fd]?.queue.first?.readyAt, readyAt < deadline { deadline = readyAt }
    }
    let remaining = ContinuousClock.now.duration(to: deadline)
    if remaining <= .zero { return 0 }
    let (seconds, attoseconds) = remaining.components
    return Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
  }

  func runTimers() {
    let now = ContinuousClock.now
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
    nextSweep = now.advanced(by: sweepInterval)
    for connection in Array(connections.values) {
      if let deadline = connection.drainDeadline {
        if deadline <= now { closeConnection(connection) }
      } else if connection.lastActivity.advanced(by: configuration.idleTimeout) <= now {
        if connection.isQuiet {
          timeOut(connection)
        } else if connection.watchesWritable {
          closeConnection(connection)  // The client stopped reading what it asked for.
        }
      }
    }
  }

  func timeOut(_ connection: Connection) {
    guard let failure = connection.parser.timeOut() else { return closeConnection(connection) }
    recordFailure(failure, on: connection)
    connection.acceptsRequests = false
    let response = ServerResponse.text("\(failure.reason)\n", status: 408)
    let output = ResponseSerializer.serialize(response, method: "GET", version: "HTTP/1.1", keepAlive: false)
    connection.queue.append(OutgoingResponse(bytes: output.bytes, readyAt: nil, after: .closeGracefully))
    flush(connection)
  }
}

/// The server-wide budget of buffered request bytes: while the parsers of all connections hold
/// more than `maxBufferedRequestBytes`, connections that hold a
/// large part of a request are not read (their clients wait, held back by TCP), except one, the
/// budget's holder, so that one request always completes and frees its bytes.
///
/// Nothing is refused: a held-back upload resumes once the total falls below the budget. Memory
/// for request bytes stays under the budget plus one request (`maxBodyBytes`) plus
/// `smallRequestAllowance` per connection.
extension EventLoop {
  /// A connection holding less than this is read even over budget, so small requests (and the
  /// first bytes of every request) keep flowing while uploads wait.
  static let smallRequestAllowance = 65_536

  /// Whether `connection` may read more now.
  func mayRead(_ connection: Connection) -> Bool {
    assertOnLoopThread()
    guard bufferedRequestBytes >= configuration.maxBufferedRequestBytes else { return true }
    if budgetHolder == connection.fd { return true }
    if connection.accountedBytes < Self.smallRequestAllowance { return true }
    if budgetHolder == nil {
      budgetHolder = connection.fd
      return true
    }
    return false
  }

  /// Stops reading `connection` until the budget has room again.
  func pauseForBudget(_ connection: Connection) {
    assertOnLoopThread()
    guard !connection.pausedForBudget else { return }
    connection.pausedForBudget = true
    budgetPaused.insert(connection.fd)
    state.countBudgetPause()
    updateInterest(connection)
  }

  /// Brings the buffered total up to date with what `connection`'s parser holds, and frees the
  /// holder's place once its request is done.
  func account(_ connection: Connection) {
    assertOnLoopThread()
    let held = connection.parser.heldBytes
    bufferedRequestBytes += held - connection.accountedBytes
    connection.accountedBytes = held
    if bufferedRequestBytes > peakBufferedRequestBytes {
      peakBufferedRequestBytes = bufferedRequestBytes
      state.notePeakBuffered(bufferedRequestBytes)
    }
    if budgetHolder == connection.fd && held < Self.smallRequestAllowance { budgetHolder = nil }
  }

  /// Reads again from held-back connections once the total is under budget or no connection
  /// holds the budget (one of them becomes the holder on its next read). Their head and body
  /// deadlines start again: the wait was the server's doing.
  func resumeWithinBudget() {
    assertOnLoopThread()
    guard !budgetPaused.isEmpty else { return }
    guard bufferedRequestBytes < configuration.maxBufferedRequestBytes || budgetHolder == nil else { return }
    let now = loopTime
    let paused = budgetPaused
    budgetPaused.removeAll()
    for fd in paused {
      guard let connection = connections[fd] else { continue }
      connection.pausedForBudget = false
      if connection.headStartedAt != nil { connection.headStartedAt = now }
      if connection.bodyStartedAt != nil { connection.bodyStartedAt = now }
      connection.lastProgress = now
      updateInterest(connection)
    }
  }
}

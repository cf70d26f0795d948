import CanaryTrapPrimitives
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's single I/O thread: accepts, reads, parses, calls handlers, writes, and runs the
/// timers for delays and deadlines. Everything but ``requestStop()`` runs on that thread.
///
/// Every turn is bounded per connection: at most ``readBudgetPerTurn`` bytes read and
/// ``requestsPerTurn`` requests answered, so one busy client cannot hold the others up; a client
/// whose unsent answers pass ``LoopbackServer/Configuration/maxQueuedResponseBytes`` is not read
/// until it reads them.
///
/// Confinement to the I/O thread is asserted in debug builds (``assertOnLoopThread(_:)``). The
/// state touched for every request is marked `@exclusivity(unchecked)` in release builds only:
/// one thread means no overlapping access but our own, which debug builds (and so the test suite)
/// still check, and the per-access runtime check was measured at a tenth of the serving thread's
/// user time (BENCHMARKS.md, "Serve").
final class EventLoop: @unchecked Sendable {
  let listener: ListeningSocket
  let state: ServerState
  let configuration: LoopbackServer.Configuration
  let limits: HTTPRequestParser.Limits
  let poller: any ReadinessPoller
  /// The most connections open at once (below the descriptor limit).
  let connectionCap: Int
  /// The most bytes read from one connection per turn.
  static let readBudgetPerTurn = 4 * 65_536
  /// The most requests parsed and answered on one connection per turn.
  static let requestsPerTurn = 32
  /// A request at least this large has its freed buffers handed back to the system afterwards.
  static let largeRequestBytes = 1 << 20
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  private var releaseMemoryAfterLargeRequest = false
  private let wake: (read: Int32, write: Int32)
  private let stopping = Locked(false)
  private let finished = DispatchSemaphore(value: 0)
  private let started = DispatchSemaphore(value: 0)
  private let threadID = Locked<pthread_t?>(nil)
  /// The I/O thread, for the debug-build confinement checks (written before the loop runs).
  private var loopThread: pthread_t?
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var connections = ConnectionTable()
  /// Connections whose first queued response waits for its delay.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var delayed: Set<Int32> = []
  /// Connections with complete requests still buffered, served next turn.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var pending: Set<Int32> = []
  private var nextConnectionID = 0
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  private var readBuffer = [UInt8](repeating: 0, count: 65_536)
  /// The loop's time (``LoopTime`` nanoseconds), read once when the wait returns and again
  /// before the timers run: every request of a wake is stamped with it.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var loopTime: UInt64
  /// The timeouts of the configuration in nanoseconds.
  let idleTimeout: UInt64
  let requestHeadTimeout: UInt64
  let requestBodyTimeout: UInt64
  var nextSweep: UInt64
  /// Set while accepting is paused because descriptors ran out and nothing could be shed.
  var acceptPausedUntil: UInt64?
  /// The request bytes held by every connection's parser.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var bufferedRequestBytes = 0
  /// The most `bufferedRequestBytes` has been.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var peakBufferedRequestBytes = 0
  /// The loop turn being run, counted from 1.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  private var turn = 0
  /// The events of this turn, and those of connections busy last turn, handled after the others.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  private var readyEvents: [ReadinessEvent] = []
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  private var busyEvents: [ReadinessEvent] = []
  /// The connection that may read past the budget, so that one request always completes.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var budgetHolder: Int32?
  /// Connections not read until the buffered total falls below the budget.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var budgetPaused: Set<Int32> = []

  init(configuration: LoopbackServer.Configuration, state: ServerState) throws {
    let descriptorLimit = SocketShims.raiseOpenFileLimit()
    listener = try ListeningSocket(ipv6: configuration.host == .ipv6, port: configuration.port)
    do {
      poller = try makeReadinessPoller(preferPoll: configuration.usePollInsteadOfEpoll)
      wake = try SocketShims.makePipe()
    } catch {
      SocketShims.closeDescriptor(listener.fd)
      throw error
    }
    self.state = state
    self.configuration = configuration
    self.limits = HTTPRequestParser.Limits(
      maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
    connectionCap = Self.connectionCap(
      configured: configuration.maxConnections, descriptorLimit: descriptorLimit)
    idleTimeout = LoopTime.nanoseconds(configuration.idleTimeout)
    requestHeadTimeout = LoopTime.nanoseconds(configuration.requestHeadTimeout)
    requestBodyTimeout = LoopTime.nanoseconds(configuration.requestBodyTimeout)
    loopTime = LoopTime.now()
    nextSweep = loopTime
    poller.add(listener.fd, writable: false)
    poller.add(wake.read, writable: false)
  }

  /// The configured cap, or one that leaves an eighth of the descriptors (at least 32) to the rest
  /// of the process, and never more than the descriptor limit allows.
  static func connectionCap(configured: Int?, descriptorLimit: Int?) -> Int {
    let fromLimit = descriptorLimit.map { max(8, $0 - max(32, $0 / 8)) } ?? 1024
    guard let configured else { return fromLimit }
    return max(1, min(configured, fromLimit))
  }

  /// Starts the I/O thread and returns once it runs.
  func start() {
    let name = "canary:\(listener.port)"
    let thread = Thread { [self] in
      Thread.current.name = name
      loopThread = pthread_self()
      threadID.withLock { $0 = pthread_self() }
      started.signal()
      run()
      finished.signal()
    }
    thread.start()
    started.wait()
  }

  /// Asks the loop to stop and waits for its thread to end (unless called from that thread).
  func requestStop() {
    // Only the first call wakes the loop, and it writes before the flag is set, under the lock the
    // loop reads the flag with: the loop cannot have seen it, left and closed the pipe's read end
    // (a write then would raise SIGPIPE and kill the process), nor the write end (whose descriptor
    // number another thread could already have been given).
    let first = stopping.withLock { stopping -> Bool in
      guard !stopping else { return false }
      var byte: UInt8 = 1
      _ = write(wake.write, &byte, 1)
      stopping = true
      return true
    }
    let onLoopThread = threadID.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    if first && !onLoopThread { finished.wait() }
  }

  /// Stops a debug build when confined state is touched off the I/O thread.
  func assertOnLoopThread(_ function: StaticString = #function) {
    #if DEBUG
      if let loopThread {
        assert(
          pthread_equal(loopThread, pthread_self()) != 0, "\(function) called off the server's I/O thread")
      }
    #endif
  }

  private func run() {
    while !stopping.current {
      turn &+= 1
      readyEvents.removeAll(keepingCapacity: true)
      poller.wait(timeoutMilliseconds: pending.isEmpty ? timeoutUntilNextTimer() : 0) {
        readyEvents.append($0)
      }
      loopTime = LoopTime.now()
      // Quiet connections first (the listener, and clients not served last turn, such as one that
      // sends a request now and then), then the busy ones: a lone request does not wait behind a
      // turn's worth of a flood.
      busyEvents.removeAll(keepingCapacity: true)
      for event in readyEvents {
        if let connection = connections[event.fd], connection.lastBusyTurn &+ 1 >= turn {
          busyEvents.append(event)
        } else {
          dispatch(event)
        }
      }
      for event in busyEvents { dispatch(event) }
      servePending()
      resumeWithinBudget()
      runTimers()
      if releaseMemoryAfterLargeRequest {
        releaseMemoryAfterLargeRequest = false
        SocketShims.releaseFreedMemory()
      }
    }
    shutDown()
  }

  private func dispatch(_ event: ReadinessEvent) {
    if event.fd == listener.fd {
      acceptAll()
    } else if event.fd == wake.read {
      drainWakePipe()
    } else if let connection = connections[event.fd] {
      handle(event, on: connection)
    }
  }

  private func handle(_ event: ReadinessEvent, on connection: Connection) {
    if connection.isPeerClosed {
      if event.hangup { closeConnection(connection) } else if event.writable { flush(connection) }
      return
    }
    if event.writable { flush(connection) }
    if event.readable || event.hangup, connections[event.fd] === connection, connection.watchesReadable {
      readAvailable(connection)
    }
  }

  // MARK: - Accepting

  private func acceptAll() {
    assertOnLoopThread()
    while true {
      switch listener.acceptConnection() {
      case .accepted(let fd):
        let connection = Connection(fd: fd, id: nextConnectionID, limits: limits, now: loopTime)
        nextConnectionID += 1
        connections[fd] = connection
        poller.add(fd, writable: false)
        if connections.count > connectionCap { shedOne(sparing: fd) }
      case .none:
        return
      case .outOfDescriptors:
        if shedOne(sparing: nil) { continue }
        // The listener would stay readable and spin the loop: stop watching it for a moment.
        poller.update(listener.fd, readable: false, writable: false)
        acceptPausedUntil = loopTime + 50_000_000
        return
      }
    }
  }

  /// Closes the connection that costs the least to lose: a draining one, else the one that has
  /// waited longest, idle since its last exchange or in the middle of a request (so a slow partial
  /// request goes before a keep-alive connection just served, and a long-idle one before a request
  /// just begun), else the one that made no progress for longest. Returns whether one was closed.
  @discardableResult
  private func shedOne(sparing spared: Int32?) -> Bool {
    var victim: Connection?
    var victimRank = (Int.max, UInt64.max)
    for connection in connections.values where connection.fd != spared {
      let rank: (Int, UInt64)
      if case .draining = connection.phase {
        rank = (0, connection.lastProgress)
      } else if connection.isQuiet && !connection.hasUnparsedInput {
        rank = (1, connection.headStartedAt ?? connection.bodyStartedAt ?? connection.lastProgress)
      } else {
        rank = (2, connection.lastProgress)
      }
      if rank.0 < victimRank.0 || (rank.0 == victimRank.0 && rank.1 < victimRank.1) {
        victim = connection
        victimRank = rank
      }
    }
    guard let victim else { return false }
    state.countShed()
    if victim.acceptsRequests,
      let failure = victim.parser.timeOut(
        outcome: .closeWithoutAnswer,
        reason: "connection closed to make room for new ones before the request was complete")
    {
      recordFailure(failure, on: victim)
    }
    closeConnection(victim)
    return true
  }

  private func drainWakePipe() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(wake.read, &bytes, bytes.count) > 0 {}
  }

  // MARK: - Reading

  private func readAvailable(_ connection: Connection) {
    var gotEOF = false
    var received = 0
    while received < Self.readBudgetPerTurn {
      if connection.acceptsRequests && !mayRead(connection) {
        pauseForBudget(connection)
        break
      }
      let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += count
        if connection.acceptsRequests {
          connection.parser.append(readBuffer[0..<count])
          account(connection)
        } else if connection.phase == .webSocket {
          connection.webSocket?.decoder.append(readBuffer[0..<count])
        }
        if count < readBuffer.count { break }
      } else if count == 0 {
        gotEOF = true
        break
      } else if errno == EINTR {
        continue
      } else if SocketShims.isWouldBlock {
        break
      } else {
        gotEOF = true
        break
      }
    }
    if case .draining = connection.phase {
      if gotEOF { closeConnection(connection) }
      return
    }
    if connection.acceptsRequests && received > 0 { processRequests(connection) }
    if connection.phase == .webSocket && received > 0 { processFrames(connection) }
    if gotEOF { peerDidClose(connection) }
  }

  private func peerDidClose(_ connection: Connection) {
    guard connections[connection.fd] === connection else { return }
    connection.sawEOF = true
    // Requests already buffered are answered first; processRequests calls back once they are.
    if connection.acceptsRequests && connection.hasUnparsedInput { return updateInterest(connection) }
    if connection.acceptsRequests, let failure = connection.parser.finish() {
      recordFailure(failure, on: connection)
    }
    connection.phase = .peerClosed
    pending.remove(connection.fd)
    if connection.isQuiet { return closeConnection(connection) }
    updateInterest(connection)
  }

  /// Serves, one budget each, the connections that still had complete requests buffered.
  private func servePending() {
    guard !pending.isEmpty else { return }
    let ready = pending
    pending.removeAll()
    for fd in ready {
      if let connection = connections[fd], connection.acceptsRequests, connection.hasUnparsedInput {
        processRequests(connection)
      }
    }
  }

  /// Parses up to `budget` buffered requests on `connection`, records each and queues its answer;
  /// stops early while the unsent answers pass the queue limit.
  func processRequests(_ connection: Connection, budget: Int = EventLoop.requestsPerTurn) {
    assertOnLoopThread()
    var handled = 0
    connection.hasUnparsedInput = false
    while connection.acceptsRequests {
      if connection.queuedBytes > configuration.maxQueuedResponseBytes || handled >= budget {
        connection.hasUnparsedInput = true
        if handled >= budget && connection.queuedBytes <= configuration.maxQueuedResponseBytes {
          pending.insert(connection.fd)
        }
        break
      }
      guard let event = connection.parser.next() else { break }
      handled += 1
      connection.lastBusyTurn = turn
      switch event {
      case .continueExpected:
        connection.enqueue(
          OutgoingResponse(bytes: ResponseSerializer.continueBytes, readyAt: nil, after: .keepOpen))
      case .request(let parsed):
        connection.lastProgress = loopTime
        let size = parsed.rawBytes.count
        answer(parsed, on: connection)
        if size >= Self.largeRequestBytes { releaseMemoryAfterLargeRequest = true }
      case .failure(let failure):
        recordFailure(failure, on: connection)
        connection.phase = .answeringLast
        if failure.outcome != .closeWithoutAnswer { enqueueFinalAnswer(failure, on: connection) }
      }
    }
    if !connection.hasUnparsedInput { updateRequestClock(connection) }
    account(connection)
    flush(connection)
    guard connections[connection.fd] === connection else { return }
    if connection.sawEOF && !connection.hasUnparsedInput && !connection.isPeerClosed {
      return peerDidClose(connection)
    }
    updateInterest(connection)
  }

  /// Starts or stops the head and body deadlines from what the parser holds.
  private func updateRequestClock(_ connection: Connection) {
    guard connection.acceptsRequests else { return }
    if connection.parser.isReadingBody {
      connection.headStartedAt = nil
      if connection.bodyStartedAt == nil { connection.bodyStartedAt = loopTime }
    } else if connection.parser.hasPartialRequest {
      connection.bodyStartedAt = nil
      if connection.headStartedAt == nil { connection.headStartedAt = loopTime }
    } else {
      connection.headStartedAt = nil
      connection.bodyStartedAt = nil
    }
  }

  /// Records the failed request, with what was received of it, as a malformed request.
  func recordFailure(_ failure: HTTPParseFailure, on connection: Connection) {
    assertOnLoopThread()
    let head = failure.head
    state.record(
      RecordedRequest(
        connectionID: connection.id, method: head?.method ?? "", target: head?.target ?? "",
        version: head?.version ?? "", headers: head?.headers ?? HTTPHeaders(), raw: Data(failure.raw),
        malformed: failure.reason))
  }

  /// Queues the error answer to a failed request, after which the connection closes.
  func enqueueFinalAnswer(_ failure: HTTPParseFailure, on connection: Connection) {
    assertOnLoopThread()
    let response = ServerResponse.text("\(failure.reason)\n", status: failure.status ?? 400)
    let output = ResponseSerializer.serialize(response, method: "GET", version: "HTTP/1.1", keepAlive: false)
    connection.enqueue(OutgoingResponse(bytes: output.bytes, readyAt: nil, after: .closeGracefully))
  }

  // MARK: - Writing

  /// Writes queued responses in order until one waits for its delay or the socket is full.
  func flush(_ connection: Connection) {
    assertOnLoopThread()
    while let first = connection.queue.first {
      if let readyAt = first.readyAt, readyAt > loopTime {
        delayed.insert(connection.fd)
        return
      }
      if !delayed.isEmpty { delayed.remove(connection.fd) }
      if connection.written < first.bytes.count {
        let count = first.bytes.withUnsafeBytes { bytes in
          send(
            connection.fd, bytes.baseAddress! + connection.written, bytes.count - connection.written,
            SocketShims.sendFlags)
        }
        if count < 0 {
          if errno == EINTR { continue }
          if SocketShims.isWouldBlock { return watchWritable(connection, true) }
          return closeConnection(connection)
        }
        connection.written += count
        connection.queuedBytes -= count
        connection.lastProgress = loopTime
        if connection.written < first.bytes.count { return watchWritable(connection, true) }
      }
      connection.queue.removeFirst()
      connection.written = 0
      if first.logIndex != nil || first.observed != nil {
        state.markWritten(first.logIndex, response: first.observed)
      }
      if let frame = first.webSocketFrame { markFrameWritten(frame) }
      switch first.after {
      case .keepOpen: continue
      case .closeAbruptly: return closeConnection(connection)
      case .reset:
        SocketShims.setResetOnClose(connection.fd)
        return closeConnection(connection)
      case .closeGracefully:
        connection.queue.removeAll()
        connection.queuedBytes = 0
        return beginDrain(connection)
      }
    }
    watchWritable(connection, false)
    if connection.isPeerClosed { closeConnection(connection) }
  }

  private func watchWritable(_ connection: Connection, _ writable: Bool) {
    connection.watchesWritable = writable
    updateInterest(connection)
  }

  /// Tells the poller what to watch: writability while bytes wait for room; readability unless
  /// the client's side is closed, or the connection is held back (answers over the queue limit,
  /// or complete requests still buffered).
  func updateInterest(_ connection: Connection) {
    assertOnLoopThread()
    guard connections[connection.fd] === connection else { return }
    let heldBack =
      (connection.acceptsRequests
        && (connection.hasUnparsedInput || connection.queuedBytes > configuration.maxQueuedResponseBytes))
      || (connection.phase == .webSocket && connection.queuedBytes > configuration.maxQueuedResponseBytes)
    if connection.acceptsRequests && connection.hasUnparsedInput
      && connection.queuedBytes <= configuration.maxQueuedResponseBytes
    {
      pending.insert(connection.fd)
    }
    let readable =
      !connection.isPeerClosed && !connection.sawEOF && !heldBack && !connection.pausedForBudget
    guard
      readable != connection.watchesReadable || connection.watchesWritable != connection.registeredWritable
    else { return }
    connection.watchesReadable = readable
    connection.registeredWritable = connection.watchesWritable
    poller.update(connection.fd, readable: readable, writable: connection.watchesWritable)
  }

  /// Shuts down our side of `connection` and discards what the client still sends, for at most
  /// two seconds, so the client reads the last answer (closing with unread input would reset it).
  func beginDrain(_ connection: Connection) {
    assertOnLoopThread()
    if connection.isPeerClosed { return closeConnection(connection) }
    SocketShims.shutdownWrite(connection.fd)
    pending.remove(connection.fd)
    connection.hasUnparsedInput = false
    connection.phase = .draining(until: loopTime + 2_000_000_000)
    connection.watchesWritable = false
    updateInterest(connection)
  }

  /// Closes `connection` and forgets it: its buffered bytes leave the budget, its timers end.
  func closeConnection(_ connection: Connection) {
    assertOnLoopThread()
    guard connections.removeValue(forKey: connection.fd) != nil else { return }
    bufferedRequestBytes -= connection.accountedBytes
    connection.accountedBytes = 0
    if budgetHolder == connection.fd { budgetHolder = nil }
    budgetPaused.remove(connection.fd)
    delayed.remove(connection.fd)
    pending.remove(connection.fd)
    poller.remove(connection.fd)
    SocketShims.closeDescriptor(connection.fd)
  }

  private func shutDown() {
    for connection in Array(connections.values) { closeConnection(connection) }
    poller.remove(listener.fd)
    poller.remove(wake.read)
    SocketShims.closeDescriptor(listener.fd)
    SocketShims.closeDescriptor(wake.read)
    SocketShims.closeDescriptor(wake.write)
    poller.close()
  }
}

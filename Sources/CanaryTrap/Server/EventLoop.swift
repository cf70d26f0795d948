import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's single I/O thread: accepts, reads, parses, calls handlers, writes, and runs the
/// timers for delays and idle timeouts. Everything but ``requestStop()`` runs on that thread.
final class EventLoop: @unchecked Sendable {
  let listener: ListeningSocket
  let state: ServerState
  let configuration: LoopbackServer.Configuration
  let limits: HTTPRequestParser.Limits
  let poller: any ReadinessPoller
  private let wake: (read: Int32, write: Int32)
  private let stopping = Locked(false)
  private let finished = DispatchSemaphore(value: 0)
  private let started = DispatchSemaphore(value: 0)
  private let threadID = Locked<pthread_t?>(nil)
  var connections: [Int32: Connection] = [:]
  /// Connections whose first queued response waits for its delay.
  var delayed: Set<Int32> = []
  private var nextConnectionID = 0
  private var readBuffer = [UInt8](repeating: 0, count: 65_536)
  var nextSweep: ContinuousClock.Instant
  /// Set while accepting is paused because descriptors ran out.
  var acceptPausedUntil: ContinuousClock.Instant?
  let clock = ContinuousClock()

  init(configuration: LoopbackServer.Configuration, state: ServerState) throws {
    SocketShims.raiseOpenFileLimit()
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
    nextSweep = ContinuousClock.now
    poller.add(listener.fd, writable: false)
    poller.add(wake.read, writable: false)
  }

  /// Starts the I/O thread and returns once it runs.
  func start() {
    let name = "canary:\(listener.port)"
    let thread = Thread { [self] in
      Thread.current.name = name
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
    let first = stopping.withLock { stopping -> Bool in
      defer { stopping = true }
      return !stopping
    }
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    let onLoopThread = threadID.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    if first && !onLoopThread { finished.wait() }
  }

  private func run() {
    while !stopping.current {
      poller.wait(timeoutMilliseconds: timeoutUntilNextTimer()) { event in
        if event.fd == listener.fd {
          acceptAll()
        } else if event.fd == wake.read {
          drainWakePipe()
        } else if let connection = connections[event.fd] {
          if connection.peerClosed {
            if event.hangup { closeConnection(connection) } else if event.writable { flush(connection) }
            return
          }
          if event.writable { flush(connection) }
          if event.readable || event.hangup, connections[event.fd] === connection {
            readAvailable(connection)
          }
        }
      }
      runTimers()
    }
    shutDown()
  }

  private func acceptAll() {
    while true {
      switch listener.acceptConnection() {
      case .accepted(let fd):
        let connection = Connection(fd: fd, id: nextConnectionID, limits: limits, now: .now)
        nextConnectionID += 1
        connections[fd] = connection
        poller.add(fd, writable: false)
      case .none:
        return
      case .outOfDescriptors:
        // The listener would stay readable and spin the loop: stop watching it for a moment.
        poller.update(listener.fd, readable: false, writable: false)
        acceptPausedUntil = ContinuousClock.now.advanced(by: .milliseconds(50))
        return
      }
    }
  }

  private func drainWakePipe() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(wake.read, &bytes, bytes.count) > 0 {}
  }

  private func readAvailable(_ connection: Connection) {
    var gotEOF = false
    var received = 0
    while true {
      let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += count
        if connection.acceptsRequests {
          connection.parser.append(readBuffer[0..<count])
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
    if received > 0 { connection.lastActivity = .now }
    if connection.drainDeadline != nil {
      if gotEOF { closeConnection(connection) }
      return
    }
    if connection.acceptsRequests { processRequests(connection) }
    if gotEOF { peerDidClose(connection) }
  }

  private func peerDidClose(_ connection: Connection) {
    connection.peerClosed = true
    if connection.acceptsRequests, let failure = connection.parser.finish() {
      recordFailure(failure, on: connection)
    }
    connection.acceptsRequests = false
    if connection.isQuiet { return closeConnection(connection) }
    poller.update(connection.fd, readable: false, writable: connection.watchesWritable)
  }

  /// Parses every complete request buffered on `connection`, records it and queues its answer.
  func processRequests(_ connection: Connection) {
    while connection.acceptsRequests, let event = connection.parser.next() {
      switch event {
      case .continueExpected:
        connection.queue.append(
          OutgoingResponse(bytes: ResponseSerializer.continueBytes, readyAt: nil, after: .keepOpen))
      case .request(let parsed):
        answer(parsed, on: connection)
      case .failure(let failure):
        recordFailure(failure, on: connection)
        connection.acceptsRequests = false
        if failure.status != 0 {
          let response = ServerResponse.text("\(failure.reason)\n", status: failure.status)
          let output = ResponseSerializer.serialize(
            response, method: "GET", version: "HTTP/1.1", keepAlive: false)
          connection.queue.append(
            OutgoingResponse(bytes: output.bytes, readyAt: nil, after: .closeGracefully))
        }
      }
    }
    flush(connection)
  }

  private func answer(_ parsed: ParsedRequest, on connection: Connection) {
    let head = parsed.head
    let request = state.record(
      RecordedRequest(
        connectionID: connection.id, method: head.method, target: head.target, version: head.version,
        headers: head.headers, body: Data(parsed.body), trailers: parsed.trailers, raw: parsed.raw))
    let response = state.handler(for: request)(request)
    let keepAlive = head.wantsKeepAlive
    let readyAt = response.delay.map { ContinuousClock.now.advanced(by: $0) }
    let outgoing: OutgoingResponse
    switch response.fault {
    case .closeBeforeResponse?:
      outgoing = OutgoingResponse(bytes: [], readyAt: readyAt, after: .closeAbruptly)
    case .reset?:
      outgoing = OutgoingResponse(bytes: [], readyAt: readyAt, after: .reset)
    case .closeMidBody?:
      outgoing = OutgoingResponse(
        bytes: ResponseSerializer.truncated(response, method: head.method), readyAt: readyAt,
        after: .closeAbruptly)
    case nil:
      let output = ResponseSerializer.serialize(
        response, method: head.method, version: head.version, keepAlive: keepAlive)
      outgoing = OutgoingResponse(
        bytes: output.bytes, readyAt: readyAt, after: output.closeAfter ? .closeGracefully : .keepOpen)
    }
    var logged = outgoing
    logged.logIndex = state.recordResponse(
      SentResponse(
        requestSequence: request.sequence, connectionID: connection.id, status: response.status,
        fault: response.fault, storage: outgoing.bytes))
    if response.fault != nil { logged.logIndex = nil }
    connection.queue.append(logged)
    if outgoing.after != .keepOpen { connection.acceptsRequests = false }
  }

  func recordFailure(_ failure: HTTPParseFailure, on connection: Connection) {
    let head = failure.head
    state.record(
      RecordedRequest(
        connectionID: connection.id, method: head?.method ?? "", target: head?.target ?? "",
        version: head?.version ?? "", headers: head?.headers ?? HTTPHeaders(), raw: Data(failure.raw),
        malformed: failure.reason))
  }

  /// Writes queued responses in order until one waits for its delay or the socket is full.
  func flush(_ connection: Connection) {
    while let first = connection.queue.first {
      if let readyAt = first.readyAt, readyAt > .now {
        delayed.insert(connection.fd)
        return
      }
      delayed.remove(connection.fd)
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
        connection.lastActivity = .now
        if connection.written < first.bytes.count { return watchWritable(connection, true) }
      }
      connection.queue.removeFirst()
      connection.written = 0
      if let index = first.logIndex { state.markWritten(index) }
      switch first.after {
      case .keepOpen: continue
      case .closeAbruptly: return closeConnection(connection)
      case .reset:
        SocketShims.setResetOnClose(connection.fd)
        return closeConnection(connection)
      case .closeGracefully:
        connection.queue.removeAll()
        return beginDrain(connection)
      }
    }
    watchWritable(connection, false)
    if connection.peerClosed { closeConnection(connection) }
  }

  private func watchWritable(_ connection: Connection, _ writable: Bool) {
    guard connection.watchesWritable != writable else { return }
    connection.watchesWritable = writable
    poller.update(connection.fd, readable: !connection.peerClosed, writable: writable)
  }

  func beginDrain(_ connection: Connection) {
    if connection.peerClosed { return closeConnection(connection) }
    watchWritable(connection, false)
    SocketShims.shutdownWrite(connection.fd)
    connection.acceptsRequests = false
    connection.drainDeadline = ContinuousClock.now.advanced(by: .seconds(2))
  }

  func closeConnection(_ connection: Connection) {
    guard connections.removeValue(forKey: connection.fd) != nil else { return }
    delayed.remove(connection.fd)
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

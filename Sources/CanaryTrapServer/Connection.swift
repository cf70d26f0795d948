/// What to do with a connection once a queued response has been written.
enum AfterWrite: Equatable {
  /// Keep reading requests.
  case keepOpen
  /// Half-close, drain what the client still sends, then close (so the client reads the answer).
  case closeGracefully
  /// Close at once (the close-mid-body and close-before-response faults).
  case closeAbruptly
  /// Close with a TCP reset.
  case reset
}

/// One queued answer: its bytes, when it may be sent, and what happens after it.
struct OutgoingResponse {
  var bytes: [UInt8]
  /// When it may be sent (``LoopTime`` nanoseconds), nil for at once.
  var readyAt: UInt64?
  var after: AfterWrite
  /// The index in the server's response log, marked written once every byte is sent.
  var logIndex: Int? = nil
  /// The response handed to the record observer once every byte is sent.
  var observed: SentResponse? = nil
  /// The WebSocket frame this is, marked written in the server's record once every byte is sent.
  var webSocketFrame: WebSocketWriteMark? = nil
}

/// Where a connection is in its life; each state says what is read and when it ends.
enum ConnectionPhase: Equatable {
  /// Reading and answering requests.
  case reading
  /// No more requests are read (after `Connection: close`, an error or a fault); queued answers
  /// are still written, and what the client sends is read and discarded.
  case answeringLast
  /// The client closed its side; queued answers are written, then the connection closes.
  case peerClosed
  /// Upgraded to a WebSocket: what the client sends is read as frames.
  case webSocket
  /// Our side is shut down; what the client sends is discarded until it closes or `until` passes.
  case draining(until: UInt64)
}

/// The state of one accepted connection; touched only on the I/O thread (so its mutable state,
/// like ``EventLoop``'s, skips the runtime exclusivity check in release builds).
final class Connection {
  let fd: Int32
  let id: Int
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var parser: HTTPRequestParser
  /// Responses in request order; the first one is being written or waits for its delay.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var queue: [OutgoingResponse] = []
  /// Bytes of `queue` not yet written.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var queuedBytes = 0
  /// How much of the first queued response has been written.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var written = 0
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var phase = ConnectionPhase.reading
  /// When the connection last finished a request or wrote a byte; the idle timeout counts from it.
  /// These times are ``LoopTime`` nanoseconds.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var lastProgress: UInt64
  /// When the first byte of the request head being read arrived.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var headStartedAt: UInt64?
  /// When the head of the request whose body is being read was complete.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var bodyStartedAt: UInt64?
  /// Complete requests may still be buffered: the per-turn budget ran out before they were parsed.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var hasUnparsedInput = false
  /// The client closed its side; buffered requests are still answered before the connection ends.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var sawEOF = false
  /// What the poller watches the descriptor for.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var watchesReadable = true
  /// Whether bytes wait for room in the socket (what the poller should watch for writing).
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var watchesWritable = false
  /// What the poller was last told about writability.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var registeredWritable = false
  /// Not read because the server's buffered request bytes passed their budget.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var pausedForBudget = false
  /// The request bytes of `parser` counted in the server's buffered total.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var accountedBytes = 0
  /// The last loop turn in which a request of this connection was answered (0: never).
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var lastBusyTurn = 0
  /// The frame-mode state once the connection is upgraded to a WebSocket.
  #if !DEBUG
    @exclusivity(unchecked)
  #endif
  var webSocket: WebSocketChannel?

  init(fd: Int32, id: Int, limits: HTTPRequestParser.Limits, now: UInt64) {
    self.fd = fd
    self.id = id
    self.parser = HTTPRequestParser(limits: limits)
    self.lastProgress = now
  }

  /// Whether nothing is queued to send.
  var isQuiet: Bool { queue.isEmpty }

  /// Whether new requests are parsed and answered.
  var acceptsRequests: Bool {
    if case .reading = phase { return true }
    return false
  }

  /// Whether the client closed its side (see ``ConnectionPhase/peerClosed``).
  var isPeerClosed: Bool {
    if case .peerClosed = phase { return true }
    return false
  }

  /// Whether the connection waits in the middle of a request (head or body).
  var isMidRequest: Bool { headStartedAt != nil || bodyStartedAt != nil }

  /// Appends an answer to the queue.
  func enqueue(_ response: OutgoingResponse) {
    queue.append(response)
    queuedBytes += response.bytes.count
  }
}

/// The open connections, indexed by descriptor: finding one is an array index, not a hash lookup.
struct ConnectionTable {
  private var slots: [Connection?] = []
  /// How many connections are open.
  private(set) var count = 0

  /// The connection on `fd`; setting nil forgets it.
  subscript(fd: Int32) -> Connection? {
    get { fd >= 0 && Int(fd) < slots.count ? slots[Int(fd)] : nil }
    set {
      guard fd >= 0 else { return }
      let index = Int(fd)
      if index >= slots.count {
        guard newValue != nil else { return }
        slots.append(contentsOf: repeatElement(nil, count: max(index + 1, slots.count * 2) - slots.count))
      }
      if slots[index] == nil, newValue != nil { count += 1 }
      if slots[index] != nil, newValue == nil { count -= 1 }
      slots[index] = newValue
    }
  }

  /// Forgets the connection on `fd` and returns it, if there was one.
  mutating func removeValue(forKey fd: Int32) -> Connection? {
    guard let connection = self[fd] else { return nil }
    self[fd] = nil
    return connection
  }

  /// Every open connection, in descriptor order.
  var values: [Connection] { slots.compactMap { $0 } }
}

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
  var readyAt: ContinuousClock.Instant?
  var after: AfterWrite
  /// The index in the server's response log, marked written once every byte is sent.
  var logIndex: Int? = nil
}

/// The state of one accepted connection; touched only on the I/O thread.
final class Connection {
  let fd: Int32
  let id: Int
  var parser: HTTPRequestParser
  /// Responses in request order; the first one is being written or waits for its delay.
  var queue: [OutgoingResponse] = []
  /// How much of the first queued response has been written.
  var written = 0
  var lastActivity: ContinuousClock.Instant
  /// No more requests are read (after `Connection: close`, an error, or end of input).
  var acceptsRequests = true
  /// The client closed its side.
  var peerClosed = false
  /// Our side is shut down and the connection waits for the client to close, until this instant.
  var drainDeadline: ContinuousClock.Instant?
  /// Whether the poller currently watches for writability.
  var watchesWritable = false

  init(fd: Int32, id: Int, limits: HTTPRequestParser.Limits, now: ContinuousClock.Instant) {
    self.fd = fd
    self.id = id
    self.parser = HTTPRequestParser(limits: limits)
    self.lastActivity = now
  }

  /// Whether nothing is queued to send.
  var isQuiet: Bool { queue.isEmpty }
}

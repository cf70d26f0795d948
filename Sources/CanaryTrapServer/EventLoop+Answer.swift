/// Answering a parsed request: its record, its route, and the bytes queued for it.
extension EventLoop {
  /// What the record made of a request: nil when it was only numbered and counted.
  typealias Recorded = (request: RecordedRequest, kept: Bool, observed: Bool)

  /// Records `parsed` (unless nothing would keep or observe it), finds its route and queues its
  /// answer; a WebSocket route takes the connection over.
  func answer(_ parsed: ParsedRequest, on connection: Connection) {
    assertOnLoopThread()
    let head = parsed.head
    let resolution = state.resolve(method: head.method, path: RequestTarget(head.target).path)
    // A fixed answer to a request the record neither keeps nor shows an observer needs nothing of
    // the request: it is only numbered and counted, and no RecordedRequest is built.
    let recorded: Recorded?
    if case .http(let route) = resolution, route.fixed != nil, state.countUnrecorded() {
      recorded = nil
    } else {
      var request = RecordedRequest(
        connectionID: connection.id, method: head.method, target: head.target, version: head.version,
        headers: head.headers, body: parsed.body, trailers: parsed.trailers, raw: parsed.raw)
      let (kept, observed) = state.record(numbering: &request)
      recorded = (request, kept, observed)
    }
    switch resolution {
    case .webSocket(let script):
      guard let recorded else { preconditionFailure("a WebSocket route is always recorded") }
      return answerUpgrade(
        parsed, request: recorded.request, kept: recorded.kept, script: script, on: connection)
    case .http(let route):
      // A fixed response is read where it is stored (a class's constant), never copied.
      if let fixed = route.fixed {
        return respond(with: fixed.response, fixed: fixed, to: head, recorded: recorded, on: connection)
      }
      guard let recorded else { preconditionFailure("a handler's request is always recorded") }
      respond(with: route.handler(recorded.request), fixed: nil, to: head, recorded: recorded, on: connection)
    }
  }

  /// Queues `response` to the request with `head` (the precomputed bytes of `fixed` when they
  /// fit), and enters it in the response log when its request was kept or observed.
  private func respond(
    with response: ServerResponse, fixed: ServerState.FixedAnswer?, to head: ParsedRequestHead,
    recorded: Recorded?, on connection: Connection
  ) {
    let keepAlive = head.wantsKeepAlive
    let readyAt = response.delay.map { loopTime + LoopTime.nanoseconds($0) }
    var outgoing: OutgoingResponse
    switch response.fault {
    case .closeBeforeResponse?:
      var interim: [UInt8] = []
      if head.version != "HTTP/1.0" {
        ResponseSerializer.appendInformational(response.informational, to: &interim)
      }
      outgoing = OutgoingResponse(bytes: interim, readyAt: readyAt, after: .closeAbruptly)
    case .reset?:
      outgoing = OutgoingResponse(bytes: [], readyAt: readyAt, after: .reset)
    case .closeMidBody?:
      outgoing = OutgoingResponse(
        bytes: ResponseSerializer.truncated(response, method: head.method), readyAt: readyAt,
        after: .closeAbruptly)
    case .malformedStatusLine?:
      outgoing = OutgoingResponse(
        bytes: ResponseSerializer.malformed(response, method: head.method), readyAt: readyAt,
        after: .closeGracefully)
    case nil:
      let output =
        fixed?.output(method: head.method, version: head.version, keepAlive: keepAlive)
        ?? ResponseSerializer.serialize(
          response, method: head.method, version: head.version, keepAlive: keepAlive)
      outgoing = OutgoingResponse(
        bytes: output.bytes, readyAt: readyAt, after: output.closeAfter ? .closeGracefully : .keepOpen)
    }
    // A request not kept has no entry in the response log: no record lock, no record made
    // unless an observer waits for it.
    if let recorded, recorded.kept || recorded.observed {
      let sent = SentResponse(
        requestSequence: recorded.request.sequence, connectionID: connection.id, status: response.status,
        fault: response.fault, storage: outgoing.bytes)
      let logIndex = recorded.kept ? state.recordResponse(sent, requestKept: true).index : nil
      if response.fault == nil {
        outgoing.logIndex = logIndex
        if recorded.observed { outgoing.observed = sent }
      }
    }
    if response.fault != nil
      || !enqueuePaced(outgoing, of: response, method: head.method, version: head.version, on: connection)
    {
      connection.enqueue(outgoing)
    }
    if outgoing.after != .keepOpen { connection.phase = .answeringLast }
  }
}

import Foundation

/// Which frame of a WebSocket connection a queued write is, so the record can say it was written.
enum WebSocketWriteMark {
  /// The scripted message at `index` of the record at `record`.
  case message(record: Int, index: Int)
  /// The server's close frame of the record at `record`.
  case close(record: Int)
}

/// The frame-mode state of an upgraded connection; touched only on the I/O thread.
final class WebSocketChannel {
  var decoder: WebSocketFrameDecoder
  var assembler: WebSocketMessageAssembler
  /// The connection's index in the server's WebSocket record, nil when not kept.
  let recordIndex: Int?
  /// The reason the script gives the server's close frame.
  let closeReason: String
  /// Whether the server queued its close frame (nothing more is sent or read after it).
  var closeSent = false

  /// The client's bytes held in memory: a frame not yet whole and the fragments of a message not
  /// yet finished. They count toward the server's buffered-bytes budget.
  var heldBytes: Int { decoder.bufferedBytes + assembler.pendingBytes }

  init(limits: WebSocketFrameDecoder.Limits, recordIndex: Int?, closeReason: String) {
    decoder = WebSocketFrameDecoder(requiresMask: true, limits: limits)
    assembler = WebSocketMessageAssembler(maxMessageBytes: limits.maxMessageBytes)
    self.recordIndex = recordIndex
    self.closeReason = closeReason
  }
}

/// The server's WebSocket side (RFC 6455): the opening handshake on a WebSocket route, then frames.
extension EventLoop {
  /// Answers an upgrade request to a WebSocket route: `101` and frame mode when the handshake is
  /// valid, else 400 (426 for an unsupported version) and close.
  func answerUpgrade(
    _ parsed: ParsedRequest, request: RecordedRequest, kept: Bool,
    script handler: @Sendable (RecordedRequest) -> WebSocketScript, on connection: Connection
  ) {
    assertOnLoopThread()
    let head = parsed.head
    let accept: String
    switch WebSocketHandshake.accept(method: head.method, headers: head.headers) {
    case .failure(let refusal):
      var response = ServerResponse.text("\(Self.describe(refusal))\n", status: 400)
      if refusal == .unsupportedVersion {
        response = ServerResponse.text("\(Self.describe(refusal))\n", status: 426)
          .header("Sec-WebSocket-Version", "13")
      } else if refusal == .notAnUpgrade {
        response = ServerResponse.text("\(Self.describe(refusal))\n", status: 426)
          .header("Upgrade", "websocket").header("Connection", "Upgrade, close")
      }
      let output = ResponseSerializer.serialize(
        response, method: head.method, version: head.version, keepAlive: false)
      var outgoing = OutgoingResponse(bytes: output.bytes, readyAt: nil, after: .closeGracefully)
      let sent = SentResponse(
        requestSequence: request.sequence, connectionID: connection.id, status: response.status, fault: nil,
        storage: output.bytes)
      let (logIndex, observed) = state.recordResponse(sent, requestKept: kept)
      outgoing.logIndex = logIndex
      if observed { outgoing.observed = sent }
      connection.enqueue(outgoing)
      connection.phase = .answeringLast
      return
    case .success(let value):
      accept = value
    }
    let script = handler(request)
    let offered = head.headers.values(for: "Sec-WebSocket-Protocol").flatMap {
      $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let chosen = script.subprotocol.flatMap { offered.contains($0) ? $0 : nil }
    var headers: HTTPHeaders = [
      "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept,
    ]
    if let chosen { headers.add("Sec-WebSocket-Protocol", chosen) }
    for (name, value) in script.headers { headers.add(name, value) }
    let response = ServerResponse(status: 101, headers: headers)
    let output = ResponseSerializer.serialize(
      response, method: head.method, version: head.version, keepAlive: true)
    var outgoing = OutgoingResponse(bytes: output.bytes, readyAt: nil, after: .keepOpen)
    let sent = SentResponse(
      requestSequence: request.sequence, connectionID: connection.id, status: 101, fault: nil,
      storage: output.bytes)
    let (logIndex, observed) = state.recordResponse(sent, requestKept: kept)
    outgoing.logIndex = logIndex
    if observed { outgoing.observed = sent }
    connection.enqueue(outgoing)

    let recordIndex = state.openWebSocket(
      WebSocketRecord(
        handshakeSequence: request.sequence, connectionID: connection.id, path: request.path,
        subprotocol: chosen, sent: script.messages),
      kept: kept)
    let channel = WebSocketChannel(
      limits: WebSocketFrameDecoder.Limits(
        maxFramePayload: configuration.maxWebSocketFrameBytes,
        maxMessageBytes: configuration.maxWebSocketMessageBytes),
      recordIndex: recordIndex, closeReason: script.closeReason)
    connection.webSocket = channel
    connection.phase = .webSocket
    connection.headStartedAt = nil
    connection.bodyStartedAt = nil
    connection.hasUnparsedInput = false
    pending.remove(connection.fd)
    for (index, message) in script.messages.enumerated() {
      let frame: WebSocketFrame
      switch message {
      case .text(let text): frame = WebSocketFrame(opcode: .text, payload: Array(text.utf8))
      case .binary(let data): frame = WebSocketFrame(opcode: .binary, payload: Array(data))
      }
      var queued = OutgoingResponse(bytes: frame.encoded(), readyAt: nil, after: .keepOpen)
      queued.webSocketFrame = recordIndex.map { .message(record: $0, index: index) }
      connection.enqueue(queued)
    }
    // Frames the client sent right behind its handshake are read as frames.
    let early = connection.parser.takeUnparsedBytes()
    account(connection)
    if !early.isEmpty {
      channel.decoder.append(early)
      processFrames(connection)
    }
  }

  /// Reads the whole frames buffered on `connection`: records messages, answers pings, runs the
  /// close handshake, and closes with the decoder's or assembler's code on a protocol error.
  func processFrames(_ connection: Connection) {
    assertOnLoopThread()
    guard connection.phase == .webSocket, let channel = connection.webSocket else { return }
    while !channel.closeSent, let result = channel.decoder.nextFrame() {
      connection.lastProgress = loopTime
      let frame: WebSocketFrame
      switch result {
      case .failure(let failure): return failWebSocket(connection, failure)
      case .success(let decoded): frame = decoded
      }
      switch channel.assembler.receive(frame) {
      case .failure(let failure): return failWebSocket(connection, failure)
      case .success(nil), .success(.pong?): continue
      case .success(.text(let text)?): state.recordWebSocketMessage(channel.recordIndex, .text(text))
      case .success(.binary(let bytes)?):
        state.recordWebSocketMessage(channel.recordIndex, .binary(Data(bytes)))
      case .success(.ping(let payload)?):
        connection.enqueue(
          OutgoingResponse(
            bytes: WebSocketFrame(opcode: .pong, payload: payload).encoded(), readyAt: nil, after: .keepOpen))
        state.updateWebSocket(channel.recordIndex) { $0.pingsAnswered += 1 }
      case .success(.close(let code, let reason)?):
        state.updateWebSocket(channel.recordIndex) {
          $0.clientClose = WebSocketClose(code: code, reason: reason)
        }
        sendClose(on: connection, code: code, reason: channel.closeReason)
      }
    }
    if !channel.closeSent && accountWebSocket(connection, channel) {
      state.countWebSocketOverBudget()
      return failWebSocket(
        connection,
        WebSocketFailure(
          .tryAgainLater,
          "the server's budget of \(configuration.maxBufferedRequestBytes) buffered bytes is used up"))
    }
    flush(connection)
    updateInterest(connection)
  }

  /// Brings the server's buffered total up to date with what `channel` holds; true when the total
  /// is over ``LoopbackServer/Configuration/maxBufferedRequestBytes`` and this connection holds at
  /// least ``smallRequestAllowance`` of it. A WebSocket connection is not held back as an HTTP
  /// upload is: an unfinished message frees nothing by waiting, so such a connection is closed
  /// with 1013 instead.
  private func accountWebSocket(_ connection: Connection, _ channel: WebSocketChannel) -> Bool {
    let held = channel.heldBytes
    bufferedRequestBytes += held - connection.accountedBytes
    connection.accountedBytes = held
    if bufferedRequestBytes > peakBufferedRequestBytes {
      peakBufferedRequestBytes = bufferedRequestBytes
      state.notePeakBuffered(bufferedRequestBytes)
    }
    return bufferedRequestBytes > configuration.maxBufferedRequestBytes && held >= Self.smallRequestAllowance
  }

  /// Records `failure`, sends a close frame with its code and reason, and closes.
  private func failWebSocket(_ connection: Connection, _ failure: WebSocketFailure) {
    guard let channel = connection.webSocket else { return }
    state.updateWebSocket(channel.recordIndex) {
      $0.failure = "\(failure.code.rawValue): \(failure.reason)"
    }
    sendClose(on: connection, code: failure.code.rawValue, reason: failure.reason)
    flush(connection)
  }

  /// Queues the server's close frame, after which the connection half-closes, drains and closes.
  private func sendClose(on connection: Connection, code: UInt16?, reason: String) {
    guard let channel = connection.webSocket, !channel.closeSent else { return }
    channel.closeSent = true
    // Nothing more is read as frames: what the channel holds leaves memory and the budget.
    channel.decoder.discardBuffered()
    channel.assembler.discardPending()
    _ = accountWebSocket(connection, channel)
    let frame = WebSocketFrame.close(rawCode: code, reason: reason)
    let sentReason = String(decoding: frame.payload.dropFirst(2), as: UTF8.self)
    state.updateWebSocket(channel.recordIndex) {
      $0.serverClose = WebSocketClose(code: code, reason: code == nil ? "" : sentReason)
    }
    var queued = OutgoingResponse(bytes: frame.encoded(), readyAt: nil, after: .closeGracefully)
    queued.webSocketFrame = channel.recordIndex.map { .close(record: $0) }
    connection.enqueue(queued)
    // Nothing more is read as frames: what the client still sends is discarded.
    connection.phase = .answeringLast
  }

  /// Marks a frame written in the server's record.
  func markFrameWritten(_ mark: WebSocketWriteMark) {
    switch mark {
    case .message(let record, let index):
      state.updateWebSocket(record) {
        if $0.sent.indices.contains(index) { $0.sent[index].fullyWritten = true }
      }
    case .close(let record):
      state.updateWebSocket(record) { $0.serverCloseWritten = true }
    }
  }

  private static func describe(_ refusal: WebSocketHandshake.Refusal) -> String {
    switch refusal {
    case .notGET: "a WebSocket handshake must be a GET"
    case .notAnUpgrade: "not a WebSocket upgrade: Upgrade: websocket and Connection: Upgrade are required"
    case .unsupportedVersion: "Sec-WebSocket-Version must be 13"
    case .badKey: "Sec-WebSocket-Key must be the base64 of 16 bytes"
    }
  }
}

extension WebSocketFrame {
  /// A close frame with the status `code` (none when nil, then no reason either) and a UTF-8
  /// `reason` cut to fit 125 bytes, for echoing a code outside ``WebSocketCloseCode``.
  package static func close(rawCode code: UInt16?, reason: String) -> WebSocketFrame {
    guard let code else { return WebSocketFrame(opcode: .close, payload: []) }
    var reasonBytes = Array(reason.utf8.prefix(123))
    while String(strictUTF8: reasonBytes) == nil { reasonBytes.removeLast() }
    return WebSocketFrame(opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes)
  }
}

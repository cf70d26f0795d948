/// Proves delivery of a canary in a WebSocket conversation from the loopback server's record: a
/// client message or close reason counts when the server received it there with that value, a
/// server message or close reason when the server wrote its whole frame.
enum WebSocketProof {
  static func status(of part: CanaryLocation.WebSocketPart, value: String, in evidence: DeliveryEvidence)
    -> CanaryDelivery.Status
  {
    let records = evidence.webSockets
    guard !records.isEmpty else {
      return .undelivered(reason: "the server accepted no WebSocket connection, so no frame carried it")
    }
    switch part {
    case .clientMessage(let index, let type):
      if records.contains(where: {
        $0.received.indices.contains(index - 1) && matches($0.received[index - 1], type, value)
      }) {
        return .delivered
      }
      if records.contains(where: { $0.received.count < index && $0.droppedMessages > 0 }) {
        return .undelivered(
          reason:
            "the server's record of WebSocket messages was full, so client message \(index) was not kept")
      }
      let most = records.map(\.received.count).max() ?? 0
      return .undelivered(
        reason: most < index
          ? "the server received \(most) client message(s), never a message \(index)"
          : "client message \(index) arrived, but not as \(type.rawValue) holding it")
    case .serverMessage(let index, let type):
      let carriers = records.compactMap { record in
        record.sent.indices.contains(index - 1) && matches(record.sent[index - 1].message, type, value)
          ? record.sent[index - 1] : nil
      }
      if carriers.contains(where: \.fullyWritten) { return .delivered }
      return .undelivered(
        reason: carriers.isEmpty
          ? "the server never sent it as \(type.rawValue) message \(index)"
          : "the server did not finish writing message \(index) (the client closed first or stopped reading)")
    case .clientCloseReason:
      if records.contains(where: { $0.clientClose?.reason.contains(value) == true }) { return .delivered }
      return .undelivered(
        reason: records.contains(where: { $0.clientClose != nil })
          ? "the client's close frame arrived without it as its reason"
          : "the client never sent a close frame (it dropped the connection, or the server closed first)")
    case .serverCloseReason:
      let carriers = records.filter { $0.serverClose?.reason.contains(value) == true }
      if carriers.contains(where: \.serverCloseWritten) { return .delivered }
      return .undelivered(
        reason: carriers.isEmpty
          ? "the server never sent a close frame with it as its reason (the client never closed, or a protocol error closed first)"
          : "the server did not finish writing its close frame")
    }
  }

  private static func matches(
    _ message: WebSocketMessage, _ type: CanaryLocation.WebSocketMessageType, _ value: String
  ) -> Bool {
    switch (message, type) {
    case (.text, .text), (.binary, .binary): message.contains(value)
    default: false
    }
  }
}

/// What a ``LoopbackServer`` received and what its limits gave up, cumulative over its life.
///
/// Every limit of the server has a counter here, so a bounded record never looks complete when it
/// is not: a non-zero ``requestsDropped`` or ``bytesDropped`` means ``LoopbackServer/requests``
/// is missing something the server was sent.
package struct ServerCounters: Sendable, Equatable {
  /// Requests received, malformed ones included.
  package var requestsReceived = 0
  /// Requests answered but not kept, because the record already held
  /// ``LoopbackServer/Configuration/maxRecordedRequests``.
  package var requestsDropped = 0
  /// Body and raw bytes not kept, because the record reached
  /// ``LoopbackServer/Configuration/maxRecordedBytes``.
  package var bytesDropped = 0
  /// Connections closed to make room when the connection cap or the descriptor limit was reached.
  package var connectionsShed = 0
  /// Requests answered 408 because their head or body passed its deadline.
  package var requestsTimedOut = 0
  /// Times a connection was held back (not read) because the request bytes buffered across
  /// connections passed ``LoopbackServer/Configuration/maxBufferedRequestBytes``; nothing is
  /// lost, the client waits.
  package var budgetPauses = 0
  /// The most request bytes buffered across connections at once (heads and bodies being received).
  package var peakBufferedRequestBytes = 0
  /// WebSocket messages from clients not kept in ``LoopbackServer/webSockets``, because the record
  /// held ``LoopbackServer/Configuration/maxRecordedWebSocketMessages`` or reached
  /// ``LoopbackServer/Configuration/maxRecordedBytes``, or the upgrade request was not kept.
  package var webSocketMessagesDropped = 0
  /// WebSocket connections answered with close code 1013 (Try Again Later) and closed because the
  /// bytes they held (a partial frame, the fragments of an unfinished message) would have taken
  /// the request bytes buffered across connections past
  /// ``LoopbackServer/Configuration/maxBufferedRequestBytes``.
  package var webSocketsClosedOverBudget = 0
  /// WebSocket connections served but not kept in ``LoopbackServer/webSockets`` because it already
  /// held ``LoopbackServer/Configuration/maxRecordedRequests`` of them (only `canary serve`, which
  /// keeps conversations whose upgrade request it does not keep, can reach this); their messages
  /// count in ``webSocketMessagesDropped``.
  package var webSocketsDropped = 0

  /// Creates counters, all zero.
  package init() {}

  /// Whether the record holds everything received (nothing dropped or cut).
  package var recordIsComplete: Bool {
    requestsDropped == 0 && bytesDropped == 0 && webSocketMessagesDropped == 0 && webSocketsDropped == 0
  }
}

/// What the server reports to a record observer, on its I/O thread.
package enum ServerRecordEvent: Sendable {
  /// A request as received, whole (before the record's byte budget cuts it).
  case request(RecordedRequest)
  /// A response, once every byte of it was handed to the kernel.
  case responseWritten(SentResponse)
}

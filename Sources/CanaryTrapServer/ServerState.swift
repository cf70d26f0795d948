import CanaryTrapPrimitives
import Foundation

/// Routes and recordings of one server, shared by the public API and the I/O thread.
final class ServerState: Sendable {
  typealias Handler = @Sendable (RecordedRequest) -> ServerResponse

  private struct RouteKey: Hashable {
    var method: String
    var path: String
  }

  /// A handler in a struct: returned through the lock's generic closure, a bare function value
  /// would be re-wrapped (one allocation per request); a struct is passed as it is.
  struct Route {
    var handler: Handler
    /// The answer of a route scripted with one unchanging response, serialized once.
    var fixed: FixedAnswer? = nil
  }

  /// An unchanging response and its bytes for the common request (keep-alive, not `HEAD`, not
  /// HTTP/1.0), so such requests are answered without calling the handler or serializing. A
  /// class: a route is copied out of the table per request, and one reference costs one retain.
  final class FixedAnswer: Sendable {
    let response: ServerResponse
    let keepAliveOutput: ResponseSerializer.Output

    init(_ response: ServerResponse) {
      self.response = response
      keepAliveOutput = ResponseSerializer.serialize(
        response, method: "GET", version: "HTTP/1.1", keepAlive: true)
    }

    /// The bytes for a request with `method` and `version`, when they are the precomputed ones.
    func output(method: String, version: String, keepAlive: Bool) -> ResponseSerializer.Output? {
      keepAlive && method != "HEAD" && version != "HTTP/1.0" ? keepAliveOutput : nil
    }
  }

  /// Every route, behind one lock: one lookup per request finds the WebSocket route, the HTTP
  /// route or the fallback.
  private struct RouteTable {
    var http: [RouteKey: Route] = [:] { didSet { lastResolved = nil } }
    var webSocket: [String: WebSocketHandler] = [:] { didSet { lastResolved = nil } }
    var fallback = Route(handler: { _ in .text("no route\n", status: 404) }) { didSet { lastResolved = nil } }
    /// The last method and path resolved and what they resolved to, forgotten when a route
    /// changes: a client repeating one request is answered without hashing its path again.
    var lastResolved: (method: String, path: String, resolution: Resolution)?
  }

  /// What answers a request: a WebSocket script or an HTTP handler.
  enum Resolution {
    case webSocket(WebSocketHandler)
    case http(Route)
  }

  private let routes = Locked(RouteTable())
  private struct Log {
    var requests: [RecordedRequest] = []
    var responses: [SentResponse] = []
    var nextSequence = 0
    /// Body and raw bytes held by `requests`.
    var keptBytes = 0
    var counters = ServerCounters()
    var observer: (@Sendable (ServerRecordEvent) -> Void)?
    var webSockets: [WebSocketRecord] = []
    /// Client messages kept across `webSockets`.
    var keptWebSocketMessages = 0
  }

  private let log = Locked(Log())
  let recordsRequests: Bool
  /// Whether WebSocket connections are kept even when their upgrade request is not.
  let recordsWebSocketsAlways: Bool
  let maxRecordedRequests: Int
  let maxRecordedBytes: Int
  let maxRecordedWebSocketMessages: Int
  typealias WebSocketHandler = @Sendable (RecordedRequest) -> WebSocketScript

  init(configuration: LoopbackServer.Configuration) {
    recordsRequests = configuration.recordsRequests
    recordsWebSocketsAlways = configuration.recordsWebSocketsAlways
    maxRecordedWebSocketMessages = max(0, configuration.maxRecordedWebSocketMessages)
    maxRecordedRequests = max(0, configuration.maxRecordedRequests)
    maxRecordedBytes = max(0, configuration.maxRecordedBytes)
  }

  func setObserver(_ observer: @escaping @Sendable (ServerRecordEvent) -> Void) {
    log.withLock { $0.observer = observer }
  }

  func setRoute(_ method: HTTPMethod, _ path: String, _ handler: @escaping Handler) {
    routes.withLock { $0.http[RouteKey(method: method.rawValue, path: path)] = Route(handler: handler) }
  }

  /// Routes `method` and `path` to one unchanging `response`.
  func setRoute(_ method: HTTPMethod, _ path: String, respond response: ServerResponse) {
    let route = Route(handler: { _ in response }, fixed: FixedAnswer(response))
    routes.withLock { $0.http[RouteKey(method: method.rawValue, path: path)] = route }
  }

  func setFallback(_ handler: @escaping Handler) {
    routes.withLock { $0.fallback = Route(handler: handler) }
  }

  /// What answers `request`, under one lock: the WebSocket route of its path (as sent, then
  /// percent-decoded), else the HTTP route of its exact method and path, then of any method, then
  /// the same two with the decoded path, else the fallback. A path without `%` is not decoded (it
  /// would decode to itself).
  func resolve(_ request: RecordedRequest) -> Resolution {
    resolve(method: request.method, path: request.path)
  }

  /// ``resolve(_:)`` from the request's method and path alone.
  func resolve(method: String, path: String) -> Resolution {
    routes.withLock { table in
      if let last = table.lastResolved, last.method == method, last.path == path { return last.resolution }
      let resolution = Self.resolve(method: method, path: path, in: table)
      table.lastResolved = (method, path, resolution)
      return resolution
    }
  }

  /// The route table's answer for `method` and `path`.
  private static func resolve(method: String, path: String, in table: RouteTable) -> Resolution {
    let decoded = path.utf8.contains(UInt8(ascii: "%")) ? PercentDecoding.decode(path) : nil
    if let script = table.webSocket[path] ?? decoded.flatMap({ table.webSocket[$0] }) {
      return .webSocket(script)
    }
    if let route = table.http[RouteKey(method: method, path: path)]
      ?? table.http[RouteKey(method: HTTPMethod.any.rawValue, path: path)]
    {
      return .http(route)
    }
    if let decoded,
      let route = table.http[RouteKey(method: method, path: decoded)]
        ?? table.http[RouteKey(method: HTTPMethod.any.rawValue, path: decoded)]
    {
      return .http(route)
    }
    return .http(table.fallback)
  }

  /// Numbers `request` in arrival order, keeps it if the record has room (cut to the byte
  /// budget), tells the observer, and returns it numbered and whole, with whether it was kept and
  /// whether an observer was told (then its answer goes to the observer too).
  @discardableResult
  func record(_ request: consuming RecordedRequest) -> (request: RecordedRequest, kept: Bool, observed: Bool)
  {
    var numbered = request
    let (kept, observed) = record(numbering: &numbered)
    return (numbered, kept, observed)
  }

  /// Numbers and counts the next request, and returns true, when the record would neither keep
  /// it nor tell an observer: the hot path then never builds its ``RecordedRequest``. Returns
  /// false, counting nothing, when it is to be recorded through ``record(numbering:)``.
  func countUnrecorded() -> Bool {
    log.withLock { log in
      guard log.observer == nil, !recordsRequests || log.requests.count >= maxRecordedRequests else {
        return false
      }
      log.nextSequence += 1
      log.counters.requestsReceived += 1
      if recordsRequests { log.counters.requestsDropped += 1 }
      return true
    }
  }

  /// ``record(_:)`` numbering `numbered` in place: the request is neither copied in nor out
  /// (unless kept or observed), where the hot path would pay a retain and a release per field.
  func record(numbering numbered: inout RecordedRequest) -> (kept: Bool, observed: Bool) {
    let (kept, observer) = log.withLock { log -> (Bool, (@Sendable (ServerRecordEvent) -> Void)?) in
      numbered.sequence = log.nextSequence
      log.nextSequence += 1
      log.counters.requestsReceived += 1
      guard recordsRequests || numbered.malformed != nil else { return (false, log.observer) }
      guard log.requests.count < maxRecordedRequests else {
        log.counters.requestsDropped += 1
        return (false, log.observer)
      }
      log.requests.append(cut(numbered, room: maxRecordedBytes - log.keptBytes))
      let last = log.requests[log.requests.count - 1]
      log.keptBytes += last.body.count + last.raw.count
      log.counters.bytesDropped += last.droppedBytes
      return (true, log.observer)
    }
    observer?(.request(numbered))
    return (kept, observer != nil)
  }

  /// `request` with its body, then its raw bytes, cut to `room` bytes in all.
  private func cut(_ request: RecordedRequest, room: Int) -> RecordedRequest {
    let size = request.body.count + request.raw.count
    guard size > room else { return request }
    var cut = request
    let bodyKept = min(request.body.count, max(0, room))
    let rawKept = min(request.raw.count, max(0, room - bodyKept))
    // subdata copies: a prefix would share, and so keep alive, the whole buffer.
    cut.body = request.body.subdata(in: request.body.startIndex..<(request.body.startIndex + bodyKept))
    cut.raw = request.raw.subdata(in: request.raw.startIndex..<(request.raw.startIndex + rawKept))
    cut.droppedBytes = size - bodyKept - rawKept
    return cut
  }

  /// Appends the answer to a request when that request was kept, and returns its index for
  /// ``markWritten(_:response:)`` (nil when not kept or when the server does not record), with
  /// whether a record observer is set (then the response carries its bytes to it): one lock.
  func recordResponse(_ response: SentResponse, requestKept: Bool) -> (index: Int?, observed: Bool) {
    log.withLock { log in
      guard requestKept && recordsRequests else { return (nil, log.observer != nil) }
      log.responses.append(response)
      return (log.responses.count - 1, log.observer != nil)
    }
  }

  /// Notes that every byte of a response reached the socket: marks the record's entry at `index`
  /// and hands `response` to the observer.
  func markWritten(_ index: Int?, response: SentResponse?) {
    let observer = log.withLock { log -> (@Sendable (ServerRecordEvent) -> Void)? in
      if let index, index < log.responses.count { log.responses[index].fullyWritten = true }
      return log.observer
    }
    if let observer, var response {
      response.fullyWritten = true
      observer(.responseWritten(response))
    }
  }

  /// Counts a connection closed to make room.
  func countShed() { log.withLock { $0.counters.connectionsShed += 1 } }

  /// Counts a connection held back by the budget of buffered request bytes.
  func countBudgetPause() { log.withLock { $0.counters.budgetPauses += 1 } }

  /// Counts a WebSocket connection closed with 1013 for the buffered-bytes budget.
  func countWebSocketOverBudget() { log.withLock { $0.counters.webSocketsClosedOverBudget += 1 } }

  /// Notes a new high-water mark of buffered request bytes.
  func notePeakBuffered(_ bytes: Int) {
    log.withLock { $0.counters.peakBufferedRequestBytes = max($0.counters.peakBufferedRequestBytes, bytes) }
  }

  /// Counts a request answered 408.
  func countTimedOut() { log.withLock { $0.counters.requestsTimedOut += 1 } }

  var counters: ServerCounters { log.withLock { $0.counters } }

  var requests: [RecordedRequest] { log.withLock { $0.requests } }

  var responses: [SentResponse] { log.withLock { $0.responses } }

  func clearRequests() {
    log.withLock {
      $0.requests.removeAll()
      $0.responses.removeAll()
      $0.webSockets.removeAll()
      $0.keptWebSocketMessages = 0
      $0.keptBytes = 0
    }
  }

  // MARK: - WebSocket

  func setWebSocketRoute(_ path: String, _ handler: @escaping WebSocketHandler) {
    routes.withLock { $0.webSocket[path] = handler }
  }

  /// Keeps `record` when its upgrade request was kept (or the server keeps every WebSocket);
  /// returns its index for the updates below.
  func openWebSocket(_ record: WebSocketRecord, kept: Bool) -> Int? {
    guard (kept && recordsRequests) || recordsWebSocketsAlways else { return nil }
    return log.withLock { log -> Int? in
      // A kept upgrade request always finds room; only conversations kept without their request
      // (`canary serve`) can reach the cap, which bounds their count as requests are bounded.
      guard log.webSockets.count < maxRecordedRequests else {
        log.counters.webSocketsDropped += 1
        return nil
      }
      log.webSockets.append(record)
      return log.webSockets.count - 1
    }
  }

  /// Keeps a client message of the connection at `index` while the record has room; counts it
  /// as dropped otherwise (and every later message of that connection).
  func recordWebSocketMessage(_ index: Int?, _ message: WebSocketMessage) {
    log.withLock { log in
      guard let index, index < log.webSockets.count else {
        log.counters.webSocketMessagesDropped += 1
        return
      }
      let size = message.payload.count
      if log.webSockets[index].droppedMessages > 0
        || log.keptWebSocketMessages >= maxRecordedWebSocketMessages
        || log.keptBytes + size > maxRecordedBytes
      {
        log.webSockets[index].droppedMessages += 1
        log.counters.webSocketMessagesDropped += 1
        return
      }
      log.webSockets[index].received.append(message)
      log.keptWebSocketMessages += 1
      log.keptBytes += size
    }
  }

  /// Applies `change` to the record of the connection at `index` (nothing when it was not kept).
  func updateWebSocket(_ index: Int?, _ change: (inout WebSocketRecord) -> Void) {
    guard let index else { return }
    log.withLock { log in
      guard index < log.webSockets.count else { return }
      change(&log.webSockets[index])
    }
  }

  var webSockets: [WebSocketRecord] { log.withLock { $0.webSockets } }
}

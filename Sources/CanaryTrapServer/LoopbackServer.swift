import CanaryTrapPrimitives
import Foundation

/// An HTTP/1.1 server on loopback that records every request it receives and answers with
/// scripted responses, so canaries travel through an app's real transport.
///
/// It binds only 127.0.0.1 (or ::1) on an ephemeral port, runs one dedicated I/O thread with
/// epoll (Linux) or poll, and never blocks the cooperative thread pool. Handlers are synchronous
/// closures called on that I/O thread: keep them quick (use ``ServerResponse/delayed(by:)`` to answer
/// late without stalling other connections).
///
/// Parsing is strict where ambiguity could hide a leak and lenient where clients differ: a bare LF
/// ends a line like CRLF, a missing `Host` is accepted, obsolete header folding and whitespace
/// before a colon are rejected with 400, oversized heads get 431 and bodies 413. Every malformed
/// request is recorded with its raw bytes and a `malformed` reason.
///
/// ```swift
/// let server = LoopbackServer()
/// server.on(.post, "/signin") { request in .json(["token": "cnry…"]) }
/// try server.start()
/// defer { server.stop() }
/// ```
public final class LoopbackServer: Sendable {
  /// Where and how the server listens.
  package struct Configuration: Sendable {
    /// The loopback address to bind.
    package enum Host: Sendable, Hashable {
      /// 127.0.0.1.
      case ipv4
      /// ::1.
      case ipv6
    }

    /// The loopback address to bind; there is no way to bind anything else.
    package var host: Host = .ipv4
    /// The port; 0 (the default) lets the kernel choose a free one.
    package var port: UInt16 = 0
    /// The largest request head (or trailer block) accepted; larger ones get 431.
    package var maxHeaderBytes: Int = 64 * 1024
    /// The largest request body accepted; larger ones get 413.
    package var maxBodyBytes: Int = 32 * 1024 * 1024
    /// How long a connection with no request in progress may stay open; bytes that do not start
    /// a request (blank lines) do not extend it.
    package var idleTimeout: Duration = .seconds(30)
    /// How long a request head may take from its first byte to its empty line; a slower one gets
    /// 408 and the connection closes, however often bytes trickle in.
    package var requestHeadTimeout: Duration = .seconds(10)
    /// How long a request body may take from the end of its head; a slower one gets 408 and the
    /// connection closes.
    package var requestBodyTimeout: Duration = .seconds(30)
    /// Whether well-formed requests are kept in ``LoopbackServer/requests`` (malformed ones always are).
    package var recordsRequests: Bool = true
    /// The most requests kept in ``LoopbackServer/requests``; later ones are still answered but
    /// only counted in ``ServerCounters/requestsDropped``.
    package var maxRecordedRequests: Int = 10_000
    /// The most body and raw bytes kept across the record; a request past it is kept with its body
    /// and raw bytes cut, counted in ``RecordedRequest/droppedBytes`` and
    /// ``ServerCounters/bytesDropped``.
    package var maxRecordedBytes: Int = 64 * 1024 * 1024
    /// The most WebSocket messages from clients kept in `LoopbackServer.webSockets` (their bytes
    /// also count toward ``maxRecordedBytes``); later ones are counted in
    /// ``ServerCounters/webSocketMessagesDropped``.
    package var maxRecordedWebSocketMessages: Int = 10_000
    /// The largest WebSocket frame payload a client may send; a larger one is answered with close
    /// code 1009.
    package var maxWebSocketFrameBytes: Int = 1 << 20
    /// The largest WebSocket message (its fragments together) a client may send; a larger one is
    /// answered with close code 1009.
    package var maxWebSocketMessageBytes: Int = 4 << 20
    /// The most connections open at once; nil picks one below the process's descriptor limit.
    /// When full (or when descriptors run out) the connection idle or mid-request for longest is
    /// closed to make room.
    package var maxConnections: Int? = nil
    /// The most response bytes queued on one connection before the server stops reading from it
    /// (a client that pipelines without reading waits; the others are served).
    package var maxQueuedResponseBytes: Int = 1024 * 1024
    /// The most request bytes (heads and bodies still being received) buffered across all
    /// connections; past it, connections holding a large part of a request are not read until
    /// the total falls again (their clients wait), except one, so that one request always
    /// completes. Nothing is refused; each wait is counted in ``ServerCounters/budgetPauses``.
    /// Memory for request bytes stays under this plus one ``maxBodyBytes`` request.
    /// A WebSocket connection's unread frame bytes and unfinished fragmented message count too;
    /// one that holds 64 KiB or more while the total is past this is answered with close code 1013
    /// and closed, counted in ``ServerCounters/webSocketsClosedOverBudget``.
    package var maxBufferedRequestBytes: Int = 64 * 1024 * 1024
    /// Keeps every WebSocket connection in `LoopbackServer.webSockets` (within its limits) even
    /// when ``recordsRequests`` is false: `canary serve` streams requests and writes the
    /// conversations when it stops.
    package var recordsWebSocketsAlways: Bool = false
    /// Uses poll(2) even where epoll is available (for tests of the portable path).
    package var usePollInsteadOfEpoll: Bool = false

    /// The defaults: 127.0.0.1, ephemeral port, 64 KiB heads, 32 MiB bodies, 30 s idle timeout,
    /// 10 s per head and 30 s per body, 10,000 requests and 64 MiB recorded.
    package init() {}
  }

  /// The configuration the server was created with.
  package let configuration: Configuration
  private let state: ServerState
  /// The running loop and the last bound port, under one lock so they change together.
  private struct Lifecycle {
    var loop: EventLoop?
    var lastPort: UInt16
    var refusing: RefusingPort?
  }

  private let lifecycle: Locked<Lifecycle>

  /// Creates a stopped server; call ``start()``.
  package init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.state = ServerState(configuration: configuration)
    self.lifecycle = Locked(Lifecycle(loop: nil, lastPort: configuration.port))
  }

  deinit {
    lifecycle.current.refusing?.close()
    if let running = lifecycle.current.loop {
      FileHandle.standardError.write(
        Data(
          "CanaryTrap: LoopbackServer on port \(running.listener.port) was deinitialized while still running; stopping it. Call stop() when done.\n"
            .utf8))
      running.requestStop()
    }
  }

  /// Binds, listens and starts the I/O thread; returns once connections are accepted.
  /// Calling it on a running server does nothing.
  package func start() throws {
    try lifecycle.withLock { lifecycle in
      guard lifecycle.loop == nil else { return }
      let started = try EventLoop(configuration: configuration, state: state)
      started.start()
      lifecycle.lastPort = started.listener.port
      lifecycle.loop = started
    }
  }

  /// Closes the listener and every connection and joins the I/O thread; safe to call twice.
  package func stop() {
    let running = lifecycle.withLock { lifecycle -> EventLoop? in
      defer {
        lifecycle.loop = nil
        lifecycle.refusing?.close()
        lifecycle.refusing = nil
      }
      return lifecycle.loop
    }
    running?.requestStop()
  }

  /// `http://127.0.0.1:PORT` (or `http://[::1]:PORT`) for a port on the same host that refuses
  /// every connection: bound and never listened on, and held until `stop()` so that no other
  /// socket takes it. Each call while it is held returns the same port.
  public func refusingBaseURL() throws -> URL {
    let port = try lifecycle.withLock { lifecycle -> UInt16 in
      if let held = lifecycle.refusing { return held.port }
      let bound = try RefusingPort(ipv6: configuration.host == .ipv6)
      lifecycle.refusing = bound
      return bound.port
    }
    return URL(string: "http://\(hostInURL):\(port)")!
  }

  /// Whether the server is accepting connections.
  package var isRunning: Bool { lifecycle.withLock { $0.loop != nil } }

  /// The bound port (the last one, once stopped; the configured one before starting).
  package var port: UInt16 { lifecycle.withLock { $0.lastPort } }

  /// The numeric address the listener is bound to, read back from the socket (nil when stopped).
  package var boundAddress: String? { lifecycle.withLock { $0.loop }?.listener.boundAddress }

  /// `http://127.0.0.1:PORT` (or `http://[::1]:PORT`), without a trailing slash.
  public var baseURL: URL {
    URL(string: "http://\(hostInURL):\(port)")!
  }

  /// The loopback host as a URL writes it: `127.0.0.1` or `[::1]`.
  private var hostInURL: String { configuration.host == .ipv6 ? "[::1]" : "127.0.0.1" }

  /// Answers requests with `method` (or ``HTTPMethod/any``) to exactly `path` with `handler`.
  ///
  /// `path` is compared with the request path as sent (percent-encoded, without the query), then
  /// with its percent-decoded form. A later route for the same method and path replaces it.
  public func on(
    _ method: HTTPMethod, _ path: String, _ handler: @escaping @Sendable (RecordedRequest) -> ServerResponse
  ) {
    state.setRoute(method, path, handler)
  }

  /// Answers requests with `method` to exactly `path` with a fixed response.
  public func on(_ method: HTTPMethod, _ path: String, respond response: ServerResponse) {
    state.setRoute(method, path, respond: response)
  }

  /// Answers every request no route matches (by default: 404 `no route`).
  package func setFallback(_ handler: @escaping @Sendable (RecordedRequest) -> ServerResponse) {
    state.setFallback(handler)
  }

  /// Accepts WebSocket upgrades (RFC 6455) to exactly `path` (compared like routes) and runs the
  /// script `handler` returns for each: a valid handshake is answered `101`, then the connection
  /// speaks frames (pings answered, the close handshake run, protocol errors closed with 1002,
  /// 1007 or 1009). An invalid handshake is answered 400 (426 for a version other than 13) and
  /// closed. Every connection is recorded in `webSockets`.
  public func onWebSocket(_ path: String, _ handler: @escaping @Sendable (RecordedRequest) -> WebSocketScript)
  {
    state.setWebSocketRoute(path, handler)
  }

  /// Accepts WebSocket upgrades to exactly `path` with a fixed script.
  public func onWebSocket(_ path: String, script: WebSocketScript) {
    state.setWebSocketRoute(path) { _ in script }
  }

  /// Every WebSocket connection accepted, in order, with what its client sent (bounded; see
  /// ``WebSocketRecord``).
  package var webSockets: [WebSocketRecord] { state.webSockets }

  /// Every request received, in arrival order, malformed ones included.
  public var requests: [RecordedRequest] { state.requests }

  /// What the server answered, one entry per well-formed request in arrival order, with whether
  /// every byte was written (empty when ``Configuration/recordsRequests`` is off).
  package var responses: [SentResponse] { state.responses }

  /// The well-formed requests to `path` (compared like routes), in arrival order.
  public func requests(to path: String) -> [RecordedRequest] {
    state.requests.filter {
      $0.malformed == nil && ($0.path == path || PercentDecoding.decode($0.path) == path)
    }
  }

  /// Waits, without blocking a thread, until at least `count` requests are recorded or `timeout`
  /// passes, and returns every request recorded by then (for clients that give up before the
  /// server has finished recording, such as one that disconnects mid-body).
  package func waitForRequests(count: Int, timeout: Duration = .seconds(5)) async -> [RecordedRequest] {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while state.requests.count < count, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
    return state.requests
  }

  /// How many requests arrived, and how many requests, bytes and connections the limits gave up;
  /// cumulative over the server's life.
  package var counters: ServerCounters { state.counters }

  /// Calls `observer` on the I/O thread with every request as received (before any cut) and every
  /// response once fully written, so a caller can stream the record instead of keeping it.
  package func observeRecord(_ observer: @escaping @Sendable (ServerRecordEvent) -> Void) {
    state.setObserver(observer)
  }

  /// Forgets every recorded request and response (sequence numbers and counters keep counting).
  package func clearRequests() { state.clearRequests() }
}

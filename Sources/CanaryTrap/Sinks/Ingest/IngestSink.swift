import CanaryTrapPrimitives
import Foundation

/// An HTTP endpoint on loopback to hand a crash reporter, analytics or log shipper as its upload
/// URL, so the scope scans what leaves the process.
///
/// It listens on a ``LoopbackServer`` of its own (never the scope's), accepts any method and path,
/// keeps each upload within its ``Limit`` (counting what it drops) and answers the status the
/// test chooses (``IngestAnswer``). When the scope reads it, it first waits for uploads to settle
/// (``Settle``), then undoes `Content-Encoding` gzip and deflate (zlib or raw), splits Sentry
/// envelopes, newline-delimited JSON and JSON arrays into items, and names each finding after its
/// upload, such as `ingest /api/1/envelope/ upload 1 item 2 (event)`. A body it cannot open
/// (br, zstd, snappy) or an upload it dropped makes the run inconclusive; a sink that received
/// nothing is silent. See <doc:IngestSinks>.
public final class IngestSink: LeakSink, ImmediatelyBeginningSink, DroppingSink {
  /// The name findings use, `ingest` unless told otherwise.
  public let name: String
  /// How much the sink keeps.
  package let limit: Limit
  /// How long the scope waits for uploads before reading the sink.
  package let settle: Settle
  let server: LoopbackServer
  let storage: Locked<Storage>

  /// How much an ingest sink keeps: an upload past a bound is answered but dropped and counted.
  public struct Limit: Sendable, Hashable {
    /// The most uploads kept (1,000 by default).
    package var maxUploads: Int
    /// The most bytes kept across uploads, heads and encoded bodies (16 MiB by default).
    package var maxBytes: Int
    /// The largest body accepted; a larger one is answered 413 and counted (16 MiB by default).
    package var maxUploadBytes: Int
    /// The most bytes the compressed bodies of one window may decode to, together (16 MiB by
    /// default); a body that would pass it is not scanned, and the window cannot be clean.
    package var maxDecodedBytes: Int

    /// Creates a limit.
    public init(
      maxUploads: Int = 1_000, maxBytes: Int = 16 << 20, maxUploadBytes: Int = 16 << 20,
      maxDecodedBytes: Int = 16 << 20
    ) {
      self.maxUploads = maxUploads
      self.maxBytes = maxBytes
      self.maxUploadBytes = maxUploadBytes
      self.maxDecodedBytes = maxDecodedBytes
    }

    /// 1,000 uploads, 16 MiB kept, 16 MiB per body, 16 MiB decoded per window: a sink stays
    /// under 100 MB however it is fed.
    public static let `default` = Limit()
  }

  /// How long the scope waits for uploads, since SDKs batch and flush on timers: until no upload
  /// arrived for `quiet`, or, when none arrived at all, until `timeout`.
  public struct Settle: Sendable, Hashable {
    /// How long without a new upload counts as settled (250 ms by default).
    package var quiet: Duration
    /// The longest wait (5 s by default); a sink that received nothing by then is silent.
    package var timeout: Duration

    /// Creates a settling rule.
    public init(quiet: Duration = .milliseconds(250), timeout: Duration = .seconds(5)) {
      self.quiet = quiet
      self.timeout = timeout
    }

    /// 250 ms quiet, 5 s at most.
    public static let `default` = Settle()
  }

  struct Storage {
    var uploads: [IngestUpload] = []
    var keptBytes = 0
    var arrivals = 0
    var lastArrival: ContinuousClock.Instant?
    var dropped = Dropped()
    var answers: [IngestAnswer]
    var windows: [SinkWindow: Window] = [:]
  }

  /// What was dropped: past the limits, or refused by the listener (too large, malformed).
  struct Dropped {
    var uploads = 0
    var bytes = 0
    var refused = 0
    var firstRefusal: String?
  }

  /// An open window: the arrival it starts at, what had been dropped then, and what reading it found.
  struct Window {
    var start: Int
    var dropped: Dropped
    var problems: [String] = []
  }

  /// Creates a stopped sink whose findings are named `name`; call ``start()`` and hand ``url`` to the SDK.
  public init(
    name: String = "ingest", limit: Limit = .default, settle: Settle = .default,
    answers: [IngestAnswer] = [.ok], port: UInt16 = 0
  ) {
    self.name = name
    self.limit = limit
    self.settle = settle
    var configuration = LoopbackServer.Configuration()
    configuration.port = port
    configuration.recordsRequests = false
    configuration.maxRecordedRequests = 64
    configuration.maxRecordedBytes = 1 << 20
    configuration.maxBodyBytes = max(0, limit.maxUploadBytes)
    configuration.maxBufferedRequestBytes = max(1 << 20, limit.maxUploadBytes)
    server = LoopbackServer(configuration: configuration)
    storage = Locked(Storage(answers: answers.isEmpty ? [.ok] : answers))
    server.setFallback { [weak self] request in
      self?.receive(request) ?? .status(503)
    }
    server.observeRecord { [weak self] event in
      guard case .request(let request) = event, let reason = request.malformed else { return }
      self?.refuse(request, reason: reason)
    }
  }

  deinit { server.stop() }

  /// Starts listening on 127.0.0.1; calling it again does nothing.
  public func start() throws { try server.start() }

  /// Stops listening; uploads already kept stay readable.
  public func stop() { server.stop() }

  /// `http://127.0.0.1:PORT`: the base of the upload URL to configure the SDK with.
  public var url: URL { server.baseURL }

  /// The port the listener is bound to.
  package var port: UInt16 { server.port }

  /// Sets what the next uploads are answered, in order; the last answer repeats (such as
  /// `[.tooManyRequests(retryAfter: 1), .ok]` to run a retry).
  public func answer(_ answers: [IngestAnswer]) {
    storage.withLock { $0.answers = answers.isEmpty ? [.ok] : answers }
  }

  /// Every upload kept so far, in arrival order.
  public var uploads: [IngestUpload] { storage.withLock { $0.uploads } }

  /// Uploads dropped past the limit or refused by the listener since the sink was created.
  package var droppedUploads: Int { storage.withLock { $0.dropped.uploads } }

  /// Bytes of dropped uploads since the sink was created (a refused body counts as its head only).
  package var droppedBytes: Int { storage.withLock { $0.dropped.bytes } }

  /// Only the app under test uploads to a sink the test created: any upload during the scope proves it heard the run.
  public var hearingRule: HearingRule { .anyByteDuringScope }

  /// Waits, without blocking a thread, until `count` uploads arrived (kept or dropped) or
  /// `timeout` passed, and returns the uploads kept by then: how a test waits for a flush.
  public func waitForUploads(count: Int, timeout: Duration = .seconds(5)) async -> [IngestUpload] {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while storage.withLock({ $0.arrivals }) < count, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return uploads
  }

  /// Keeps `request` as an upload when there is room, counts it otherwise, and answers it.
  private func receive(_ request: RecordedRequest) -> ServerResponse {
    let limit = self.limit
    return storage.withLock { storage in
      let answer = storage.answers.count > 1 ? storage.answers.removeFirst() : storage.answers[0]
      let upload = IngestUpload(
        sequence: storage.arrivals, method: request.method, path: request.path, query: request.query,
        headers: request.headers, body: request.body, status: answer.status, receivedAt: request.receivedAt)
      storage.arrivals += 1
      storage.lastArrival = .now
      let size = upload.size
      if storage.uploads.count < limit.maxUploads, storage.keptBytes + size <= limit.maxBytes {
        storage.uploads.append(upload)
        storage.keptBytes += size
      } else {
        storage.dropped.uploads += 1
        storage.dropped.bytes += size
      }
      return answer.response
    }
  }

  /// Counts an upload the listener refused (too large, malformed) as dropped.
  private func refuse(_ request: RecordedRequest, reason: String) {
    storage.withLock { storage in
      storage.arrivals += 1
      storage.lastArrival = .now
      storage.dropped.uploads += 1
      storage.dropped.refused += 1
      storage.dropped.bytes += request.raw.count
      if storage.dropped.firstRefusal == nil {
        storage.dropped.firstRefusal = "\(request.method) \(request.path): \(reason)"
      }
    }
  }
}

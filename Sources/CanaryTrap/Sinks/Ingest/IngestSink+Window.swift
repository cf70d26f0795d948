import Foundation

extension IngestSink {
  /// Opens `window` at the next upload to arrive.
  public func begin(_ window: SinkWindow) async throws {
    try beginImmediately(window)
  }

  func beginImmediately(_ window: SinkWindow) throws {
    try storage.withLock { storage in
      guard storage.windows[window] == nil else { throw SinkError.alreadyBegun(name) }
      storage.windows[window] = Window(start: storage.arrivals, dropped: storage.dropped)
    }
  }

  /// Waits for uploads to settle, then returns every upload kept since `window` opened, decoded
  /// and split into items, one content per head and per item (one empty content when none).
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] {
    guard storage.withLock({ $0.windows[window] }) != nil else { throw SinkError.notBegun(name) }
    await waitUntilSettled(since: window)
    let kept = storage.withLock { storage -> [IngestUpload] in
      let start = storage.windows[window]?.start ?? 0
      return storage.uploads.filter { $0.sequence >= start }
    }
    var contents: [SinkContent] = []
    var problems: [String] = []
    var ordinals: [String: Int] = [:]
    var decodable = limit.maxDecodedBytes
    for upload in kept {
      let ordinal = (ordinals[upload.path] ?? 0) + 1
      ordinals[upload.path] = ordinal
      let named = "\(name) \(Self.shortened(upload.path)) upload \(ordinal)"
      let read = IngestUploadReading(upload, maxDecodedBytes: decodable)
      decodable -= read.decodedBytes
      contents.append(.bytes(upload.head, name: "\(named) head"))
      for item in read.items { contents.append(.bytes(item.bytes, name: "\(named) \(item.label)")) }
      if let problem = read.problem { problems.append("\(named): \(problem)") }
    }
    storage.withLock { $0.windows[window]?.problems = problems }
    // No upload: one empty content, so the scope says the sink received nothing.
    return contents.isEmpty ? [.bytes(Data(), name: name)] : contents
  }

  /// Why `window` cannot be clean: uploads dropped or refused while it was open, or bodies that
  /// could not be opened; nil when everything was scanned.
  func droppedReason(in window: SinkWindow) -> String? {
    let (opened, now) = storage.withLock { ($0.windows[window], $0.dropped) }
    guard let opened else { return nil }
    var reasons = opened.problems
    let dropped = now.uploads - opened.dropped.uploads
    let refused = now.refused - opened.dropped.refused
    if dropped - refused > 0 {
      reasons.append(
        "ingest sink \(name) dropped \(dropped - refused) uploads past its limit of \(limit.maxUploads) uploads or"
          + " \(limit.maxBytes) bytes, so they were not scanned: give it a larger IngestSink.Limit")
    }
    if refused > 0 {
      reasons.append(
        "ingest sink \(name) refused \(refused) uploads it could not take (\(now.firstRefusal ?? "malformed")),"
          + " so they were not scanned")
    }
    return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
  }

  /// Closes `window`.
  public func end(_ window: SinkWindow) async {
    _ = storage.withLock { $0.windows.removeValue(forKey: window) }
  }

  /// Reads what a scope without windows reads: every upload since the sink was created.
  public func collect() async throws -> [SinkContent] {
    try beginImmediately(.standalone)
    defer { storage.withLock { $0.windows[.standalone] = nil } }
    storage.withLock { $0.windows[.standalone] = Window(start: 0, dropped: Dropped()) }
    return try await collect(.standalone)
  }

  /// Waits until no upload arrived for ``Settle/quiet`` after at least one arrived in `window`,
  /// or until ``Settle/timeout`` passed. Time the process could not run (a wake far later than
  /// asked, on a machine busy with other work) is given back to the timeout, up to four times it,
  /// as the scope's deadline does.
  func waitUntilSettled(since window: SinkWindow) async {
    let tick = Duration.milliseconds(10)
    var deadline = ContinuousClock.now + settle.timeout
    var credit = StallCredit(allowance: settle.timeout * 4)
    while true {
      let (arrivedInWindow, last) = storage.withLock { storage in
        (storage.arrivals > (storage.windows[window]?.start ?? 0), storage.lastArrival)
      }
      let now = ContinuousClock.now
      if arrivedInWindow, let last, now - last >= settle.quiet { return }
      if now >= deadline { return }
      try? await Task.sleep(for: tick)
      deadline += credit.credit(lateness: ContinuousClock.now - now - tick)
    }
  }

  /// A path as findings name it: at most 96 characters.
  static func shortened(_ path: String) -> String {
    path.count <= 96 ? path : String(path.prefix(93)) + "..."
  }
}

/// One upload's body decoded and split, with why it could not be read whole.
struct IngestUploadReading {
  /// The items to scan (the whole body as `body` when it is not split).
  var items: [IngestItems.Item]
  /// Why the body was not scanned as decoded, or nil.
  var problem: String?
  /// Bytes decoded from a compressed body (0 when it was sent as it is).
  var decodedBytes = 0

  init(_ upload: IngestUpload, maxDecodedBytes: Int) {
    let contentType = upload.headers["Content-Type"]
    if let opaque = Self.unopenable(upload, contentType: contentType) {
      items = upload.body.isEmpty ? [] : [IngestItems.Item(label: "body", bytes: upload.body)]
      problem = opaque
      return
    }
    let decoded = IngestBodyDecoding.decode(
      upload.body, codings: upload.headers.values(for: "Content-Encoding"), maxBytes: maxDecodedBytes)
    problem = decoded.problem
    if decoded.problem == nil, upload.headers.contains("Content-Encoding") {
      decodedBytes = decoded.bytes.count
    }
    if decoded.problem == nil,
      let split = IngestItems.split(decoded.bytes, contentType: contentType, path: upload.path)
    {
      items = split
    } else {
      items = decoded.bytes.isEmpty ? [] : [IngestItems.Item(label: "body", bytes: decoded.bytes)]
    }
  }

  /// Why a body is compressed in a way no header names (Loki's snappy protobuf), or nil.
  private static func unopenable(_ upload: IngestUpload, contentType: String?) -> String? {
    let type = contentType?.lowercased() ?? ""
    if type.contains("snappy") {
      return "its body is snappy-compressed (\(type)), which the sink cannot open"
    }
    if upload.path.hasSuffix("/loki/api/v1/push"), type.contains("protobuf"),
      !upload.headers.contains("Content-Encoding")
    {
      return "its body is Loki's snappy-compressed protobuf, which the sink cannot open: configure the"
        + " handler to push JSON"
    }
    return nil
  }
}

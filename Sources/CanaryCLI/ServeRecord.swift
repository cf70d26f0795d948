import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `canary serve` writes as it runs: JSON Lines, streamed so that nothing grows with the
/// number of requests.
///
/// The first line is `{"type":"start","baseURL":…}`; then one `{"type":"request",…}` line per
/// request as it arrives (bodies and raw bytes cut to ``maxBytesPerField``, with how much was cut);
/// the last line, written on stop, is `{"type":"summary",…}` with the server's counters and, for
/// each canary, whether and in which requests it was seen (the first ``maxSightingsPerCanary``
/// sequence numbers, and how many in all).
///
/// Lines are written by a ``ServeRecordWriter`` on a thread of its own through a bounded queue,
/// so a reader that does not keep up never slows the server; a line that does not fit is dropped,
/// and the summary says how many were (`recordLinesDropped`).
final class ServeRecord: @unchecked Sendable {
  /// The most body (and raw) bytes written per request line.
  static let maxBytesPerField = 1 << 20
  /// The most request sequence numbers listed per canary in the summary.
  static let maxSightingsPerCanary = 100

  /// Where the lines go.
  enum Destination {
    /// A file descriptor this record owns and closes, and the file's name for messages.
    case file(Int32, name: String)
    /// The command's standard output.
    case output(CommandIO)
  }

  /// A canary and the requests it was seen in.
  private struct Sighting {
    var canary: Canary
    var forms: [String]
    var count = 0
    var requests: [Int] = []

    mutating func note(_ sequence: Int) {
      count += 1
      if requests.count < ServeRecord.maxSightingsPerCanary { requests.append(sequence) }
    }
  }

  private struct State {
    var requestLines = 0
    var requestSightings: [Sighting]
    var responseSightings: [Sighting]
    var finished = false
  }

  private let destination: Destination
  private let writer: ServeRecordWriter
  private let requestCanaryValues: [String]
  private let state: Locked<State>
  private let dates: ISO8601DateFormatter

  /// Writes to `destination`, queuing at most `maxQueuedBytes` for the writer; with a file, the
  /// first line is written at once, so a record that cannot be written (`/dev/full`) fails here,
  /// before anything is served. Standard output gets it after the base URL, once
  /// ``startWriting()`` is called.
  init(
    writingTo destination: Destination, baseURL: URL, canaries: [Canary],
    maxQueuedBytes: Int = ServeRecordWriter.defaultMaxQueuedBytes
  ) throws {
    self.destination = destination
    let write: @Sendable (Data) throws -> Void
    switch destination {
    case .output(let io):
      write = { data in
        do {
          try io.writeOutputData(data)
        } catch {
          throw ServeCommand.UsageError(description: "cannot write the record: \(error)")
        }
      }
    case .file(let fd, let name):
      write = { data in
        do {
          try DescriptorWrite.all(data, to: fd)
        } catch {
          throw ServeCommand.UsageError(description: "cannot write the record \(name): \(error)")
        }
      }
    }
    writer = ServeRecordWriter(maxQueuedBytes: maxQueuedBytes, write: write)
    requestCanaryValues = canaries.filter(\.location.isRequestSide).map(\.value)
    dates = ISO8601DateFormatter()
    dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    state = Locked(
      State(
        requestSightings: canaries.filter(\.location.isRequestSide).map {
          Sighting(canary: $0, forms: [$0.value])
        },
        responseSightings: canaries.filter { !$0.location.isRequestSide }.map { canary in
          let encoded = canary.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
          return Sighting(canary: canary, forms: [canary.value, encoded].filter { !$0.isEmpty })
        }))
    var start = ServeRecordLine()
    start.add("type", "start")
    start.add("baseURL", baseURL.absoluteString)
    guard case .file(let fd, _) = destination else {
      append(start.line)
      return
    }
    do {
      try write(Data(start.line.utf8))
    } catch {
      close(fd)
      throw error
    }
    writer.start()
  }

  /// Starts writing the queued lines to standard output (once the base URL is written there).
  func startWriting() { writer.start() }

  /// Takes one event from the server (on its I/O thread).
  func observe(_ event: ServerRecordEvent) {
    switch event {
    case .request(let request): record(request)
    case .responseWritten(let response): record(response)
    }
  }

  private func record(_ request: RecordedRequest) {
    let found = Self.canariesFound(in: request, among: requestCanaryValues)
    let line = requestLine(request)
    state.withLock { state in
      guard !state.finished else { return }
      state.requestLines += 1
      for index in found { state.requestSightings[index].note(request.sequence) }
    }
    append(line)
  }

  /// The indices of `values` found in `request`: in its raw bytes first (searched as they are,
  /// no copy), then in the decoded views, built one at a time and only while some value is still
  /// missing, so a large upload costs at most one text copy and one decoded view at once.
  static func canariesFound(in request: RecordedRequest, among values: [String]) -> [Int] {
    guard !values.isEmpty else { return [] }
    let needles = values.map { Array($0.utf8) }
    var missing = values.indices.filter { index in
      request.raw.withUnsafeBytes { !occurs(needles[index], in: $0) }
    }
    if !missing.isEmpty {
      forEachDecodedView(of: request) { view in
        view.withUnsafeBytes { bytes in missing.removeAll { occurs(needles[$0], in: bytes) } }
        return !missing.isEmpty
      }
    }
    return values.indices.filter { !missing.contains($0) }
  }

  private func record(_ response: SentResponse) {
    let text = String(decoding: response.bytes, as: UTF8.self)
    state.withLock { state in
      for index in state.responseSightings.indices
      where state.responseSightings[index].forms.contains(where: { text.contains($0) }) {
        state.responseSightings[index].note(response.requestSequence)
      }
    }
  }

  /// Writes one `{"type":"websocket",…}` line per conversation on the `/websocket` endpoint (in
  /// the order they opened) and notes the canaries in them: request-side ones in the client's
  /// messages and close reason, response-side ones in the server's messages and close reason
  /// written in full. Each sighting counts for the conversation's upgrade request.
  func recordWebSockets(_ records: [WebSocketRecord]) {
    let needles = requestCanaryValues.map { Array($0.utf8) }
    for record in records {
      var line = ServeRecordLine()
      line.add("type", "websocket")
      line.add("request", record.handshakeSequence)
      line.add("connectionID", record.connectionID)
      line.add("path", record.path)
      if let subprotocol = record.subprotocol { line.add("subprotocol", subprotocol) }
      line.add("received", json: "[" + record.received.map(Self.messageObject).joined(separator: ",") + "]")
      if record.droppedMessages > 0 { line.add("droppedMessages", record.droppedMessages) }
      line.add(
        "sent",
        json: "["
          + record.sent.map { sent in
            Self.messageObject(sent.message).dropLast() + ",\"fullyWritten\":\(sent.fullyWritten)}"
          }.joined(separator: ",") + "]")
      if let close = record.clientClose { line.add("clientClose", json: Self.closeObject(close)) }
      if let close = record.serverClose { line.add("serverClose", json: Self.closeObject(close)) }
      line.add("serverCloseWritten", record.serverCloseWritten)
      line.add("pingsAnswered", record.pingsAnswered)
      if let failure = record.failure { line.add("failure", failure) }
      append(line.line)

      let fromClient =
        record.received.map { Array($0.payload) } + [Array((record.clientClose?.reason ?? "").utf8)]
      let found = needles.indices.filter { index in
        fromClient.contains { bytes in bytes.withUnsafeBytes { Self.occurs(needles[index], in: $0) } }
      }
      var fromServer = record.sent.filter(\.fullyWritten).map {
        String(decoding: $0.message.payload, as: UTF8.self)
      }
      if record.serverCloseWritten, let close = record.serverClose { fromServer.append(close.reason) }
      state.withLock { state in
        for index in found { state.requestSightings[index].note(record.handshakeSequence) }
        for index in state.responseSightings.indices
        where state.responseSightings[index].forms.contains(where: { form in
          fromServer.contains { $0.contains(form) }
        }) {
          state.responseSightings[index].note(record.handshakeSequence)
        }
      }
    }
  }

  private static func messageObject(_ message: WebSocketMessage) -> String {
    var object = ServeRecordLine()
    switch message {
    case .text(let text):
      object.add("type", "text")
      object.add("text", text)
    case .binary(let data):
      object.add("type", "binary")
      object.add("base64", data.base64EncodedString())
    }
    return object.object
  }

  private static func closeObject(_ close: WebSocketClose) -> String {
    var object = ServeRecordLine()
    if let code = close.code { object.add("code", Int(code)) }
    object.add("reason", close.reason)
    return object.object
  }

  private func requestLine(_ request: RecordedRequest) -> String {
    var line = ServeRecordLine()
    line.add("type", "request")
    line.add("sequence", request.sequence)
    line.add("connectionID", request.connectionID)
    line.add("method", request.method)
    line.add("target", request.target)
    line.add("path", request.path)
    if let query = request.query { line.add("query", query) }
    line.add("version", request.version)
    line.add("headers", json: Self.fields(request.headers))
    line.add("trailers", json: Self.fields(request.trailers))
    let body = request.body.prefix(Self.maxBytesPerField)
    let raw = request.raw.prefix(Self.maxBytesPerField)
    line.add("body", String(decoding: body, as: UTF8.self))
    line.add("bodyBase64", body.base64EncodedString())
    line.add("rawBase64", raw.base64EncodedString())
    let cut = request.body.count - body.count + request.raw.count - raw.count
    if cut > 0 { line.add("bytesNotWritten", cut) }
    if let malformed = request.malformed { line.add("malformed", malformed) }
    line.add("receivedAt", dates.string(from: request.receivedAt))
    return line.line
  }

  private static func fields(_ headers: HTTPHeaders) -> String {
    "["
      + headers.map { field -> String in
        var object = ServeRecordLine()
        object.add("name", field.name)
        object.add("value", field.value)
        return object.object
      }.joined(separator: ",") + "]"
  }

  /// Writes the summary line and closes the record, waiting for the reader while it reads (see
  /// ``ServeRecordWriter/finish(idleLimit:overallLimit:)``); returns the summary for the closing
  /// message, or the write error that lost part of the record.
  func finish(
    counters: ServerCounters, idleLimit: Duration = .milliseconds(500)
  ) -> Result<Summary, ServeCommand.UsageError> {
    var summary = state.withLock { state -> Summary in
      state.finished = true
      return Summary(
        requests: state.requestLines, counters: counters,
        requestSeen: state.requestSightings.filter { $0.count > 0 }.count,
        requestCanaries: state.requestSightings.count)
    }
    var line = ServeRecordLine()
    line.add("type", "summary")
    line.add("requests", counters.requestsReceived)
    line.add("connectionsShed", counters.connectionsShed)
    line.add("requestsTimedOut", counters.requestsTimedOut)
    line.add("budgetPauses", counters.budgetPauses)
    line.add("peakBufferedRequestBytes", counters.peakBufferedRequestBytes)
    line.add("webSocketMessagesDropped", counters.webSocketMessagesDropped)
    line.add("webSocketsClosedOverBudget", counters.webSocketsClosedOverBudget)
    line.add("webSocketsDropped", counters.webSocketsDropped)
    line.add("recordLinesDropped", writer.droppedLines)
    let (requestSide, responseSide) = state.withLock { ($0.requestSightings, $0.responseSightings) }
    line.add("requestCanaries", json: Self.sightings(requestSide))
    line.add("responseCanaries", json: Self.sightings(responseSide))
    writer.enqueue(Data(line.line.utf8), always: true)
    let outcome = writer.finish(idleLimit: idleLimit)
    // A descriptor the writer may still be blocked on is left open for the process's exit.
    if case .file(let fd, _) = destination, outcome.unwrittenBytes == 0 { close(fd) }
    if let failure = outcome.failure {
      return .failure(ServeCommand.UsageError(description: failure))
    }
    summary.droppedLines = outcome.droppedLines
    summary.unwrittenBytes = outcome.unwrittenBytes
    return .success(summary)
  }

  /// What the closing message on standard error says.
  struct Summary {
    var requests: Int
    var counters: ServerCounters
    var requestSeen: Int
    var requestCanaries: Int
    /// Lines the record dropped because its reader did not keep up.
    var droppedLines = 0
    /// Bytes never written, the summary among them, because the reader took nothing after the stop.
    var unwrittenBytes = 0
  }

  private static func sightings(_ list: [Sighting]) -> String {
    "["
      + list.map { sighting -> String in
        var object = ServeRecordLine()
        object.add("value", sighting.canary.value)
        object.add("location", sighting.canary.location.description)
        object.add("seen", sighting.count > 0)
        object.add("count", sighting.count)
        object.add("requests", json: ServeRecordLine.array(sighting.requests))
        return object.object
      }.joined(separator: ",") + "]"
  }

  /// Queues `line` for the writer (dropped, and counted, when the queue is full).
  private func append(_ line: String) {
    writer.enqueue(Data(line.utf8))
  }

  /// Whether `needle` occurs in `haystack`, as bytes: memchr for its first byte, then memcmp (a
  /// `String.contains` over a large upload compares grapheme clusters and took seconds).
  static func occurs(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
    guard let first = needle.first else { return true }
    guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
    let last = base + (haystack.count - needle.count)
    var start = base
    return needle.withUnsafeBytes { wanted in
      while start <= last {
        guard let hit = memchr(start, Int32(first), last - start + 1) else { return false }
        if memcmp(hit, wanted.baseAddress!, wanted.count) == 0 { return true }
        start = UnsafeRawPointer(hit) + 1
      }
      return false
    }
  }

  /// Whether `byte` occurs in `data` (memchr, not an element-by-element walk).
  private static func contains(_ byte: UInt8, in data: Data) -> Bool {
    data.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return false }
      return memchr(base, Int32(byte), bytes.count) != nil
    }
  }

  /// Hands `body` the request's bytes in the forms a planted value can take on the wire beyond
  /// its raw bytes: percent- and form-decoded (only when the raw bytes have `%` or `+`), and the
  /// Basic credentials of `Authorization` and `Proxy-Authorization` decoded; stops when `body`
  /// returns false. Each view is released before the next is built.
  static func forEachDecodedView(of request: RecordedRequest, _ body: ([UInt8]) -> Bool) {
    let credentials = ["Authorization", "Proxy-Authorization"].flatMap { request.headers.values(for: $0) }
    for value in credentials where value.lowercased().hasPrefix("basic ") {
      if let data = Data(base64Encoded: String(value.dropFirst(6)).trimmingCharacters(in: .whitespaces)) {
        guard body(Array(data)) else { return }
      }
    }
    let hasPercent = contains(UInt8(ascii: "%"), in: request.raw)
    let hasPlus = contains(UInt8(ascii: "+"), in: request.raw)
    if hasPercent {
      guard body(PercentDecoding.decodedBytes(request.raw, plusIsSpace: false)) else { return }
    }
    if hasPlus {
      _ = body(PercentDecoding.decodedBytes(request.raw, plusIsSpace: true))
    }
  }
}

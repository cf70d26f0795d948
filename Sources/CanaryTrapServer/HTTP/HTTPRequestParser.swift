import Foundation

/// An incremental HTTP/1.1 request parser fed with bytes, independent of any socket.
///
/// Feed bytes with ``append(_:)`` and pull events with ``next()`` until it returns nil; at end of
/// input call ``finish()``. Requests may be pipelined: one buffer can hold several. Lines may end
/// with CRLF or, leniently, with a bare LF; empty lines before a request line are skipped.
struct HTTPRequestParser {
  /// Size limits; exceeding them fails with 431 (head or trailers) or 413 (body).
  struct Limits: Sendable {
    var maxHeaderBytes: Int
    var maxBodyBytes: Int
  }

  private enum State: Equatable {
    case head
    case fixedBody(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers(lineStart: Int)
    case failed
  }

  let limits: Limits
  /// The longest chunk-size line (size, extensions, CRLF) accepted.
  static let maxChunkSizeLine = 1024
  private var buffer: [UInt8] = []
  private var requestStart = 0
  private var cursor = 0
  private var state = State.head
  private var head: ParsedRequestHead?
  /// The de-chunked body of a chunked request.
  private var body: [UInt8] = []
  /// The head and body so far of a request with `Content-Length`, filled straight from
  /// ``append(_:)`` into capacity reserved once: its bytes are held once, not in `buffer` too.
  private var sizedRequest: [UInt8] = []
  /// Where the body starts in `sizedRequest`.
  private var sizedBodyStart = 0
  private var trailers = HTTPHeaders()
  private var trailerBytes = 0
  private var expectsContinue = false

  /// Creates a parser enforcing `limits`.
  init(limits: Limits) { self.limits = limits }

  /// Adds received bytes; the body of a request with `Content-Length` goes straight to its own
  /// storage.
  mutating func append(_ bytes: some Collection<UInt8>) {
    guard case .fixedBody(let remaining) = state, cursor == buffer.count else {
      return buffer.append(contentsOf: bytes)
    }
    let taken = min(remaining, bytes.count)
    sizedRequest.append(contentsOf: bytes.prefix(taken))
    state = .fixedBody(remaining: remaining - taken)
    if taken < bytes.count { buffer.append(contentsOf: bytes.dropFirst(taken)) }
  }

  /// The request bytes this parser holds (buffered input and the body read so far), for the
  /// server's budget of buffered request bytes.
  var heldBytes: Int { buffer.count - requestStart + sizedRequest.count + body.count }

  /// Whether bytes of an unfinished request are buffered.
  var hasPartialRequest: Bool {
    switch state {
    case .head: buffer[requestStart...].contains { $0 != HTTPBytes.cr && $0 != HTTPBytes.lf }
    case .failed: false
    default: true
    }
  }

  /// Whether the head of the current request is complete and its body (or trailers) is awaited.
  var isReadingBody: Bool {
    switch state {
    case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers: true
    case .head, .failed: false
    }
  }

  /// The bytes received after the last complete request, handed over when the connection stops
  /// speaking HTTP (a WebSocket upgrade); the parser is left empty.
  mutating func takeUnparsedBytes() -> [UInt8] {
    let rest = Array(buffer[min(requestStart, buffer.count)...])
    buffer = []
    requestStart = 0
    cursor = 0
    return rest
  }

  /// Whether the parser stopped at a failure and ignores further input.
  var hasFailed: Bool { state == .failed }

  /// The next event the buffered bytes allow, or nil when more input is needed.
  mutating func next() -> HTTPParserEvent? {
    // The last request handed out may still view `buffer`: consumed bytes go only now.
    compact()
    while true {
      switch state {
      case .failed:
        return nil
      case .head:
        guard let event = parseHead() else { return nil }
        if case .request = event { return event }
        return event
      case .fixedBody(let remaining):
        let taken = takeSizedBody(remaining)
        if taken < remaining {
          state = .fixedBody(remaining: remaining - taken)
          return nil
        }
        return .request(complete())
      case .chunkSize:
        if let failure = parseChunkSize() { return fail(failure.outcome, failure.reason) }
        if state == .chunkSize { return nil }
      case .chunkData(let remaining):
        let taken = takeBody(remaining)
        if taken < remaining {
          state = .chunkData(remaining: remaining - taken)
          return nil
        }
        state = .chunkDataEnd
      case .chunkDataEnd:
        guard cursor < buffer.count else { return nil }
        if buffer[cursor] == HTTPBytes.lf {
          cursor += 1
        } else if buffer[cursor] == HTTPBytes.cr {
          guard cursor + 1 < buffer.count else { return nil }
          guard buffer[cursor + 1] == HTTPBytes.lf else {
            return fail(.badRequest, "missing CRLF after chunk data")
          }
          cursor += 2
        } else {
          return fail(.badRequest, "missing CRLF after chunk data")
        }
        state = .chunkSize
      case .trailers:
        guard let event = parseTrailers() else { return nil }
        return event
      }
    }
  }

  /// Reports the end of input: a failure when a request was cut short, otherwise nil.
  mutating func finish() -> HTTPParseFailure? {
    guard hasPartialRequest else { return nil }
    let reason: String
    switch state {
    case .head: reason = "connection closed before the request head was complete"
    case .fixedBody(let remaining):
      reason = "connection closed mid-body (\(remaining) of the announced bytes missing)"
    default: reason = "connection closed mid-body (chunked body incomplete)"
    }
    let failure = makeFailure(.closeWithoutAnswer, reason)
    state = .failed
    return failure
  }

  /// A failure for a request cut short by a deadline (answered as `outcome` says, 408 by
  /// default), or nil when nothing is pending.
  mutating func timeOut(
    outcome: HTTPFailureOutcome = .requestTimeout,
    reason: String = "idle timeout waiting for the rest of the request"
  ) -> HTTPParseFailure? {
    guard hasPartialRequest else { return nil }
    let failure = makeFailure(outcome, reason)
    state = .failed
    return failure
  }

  // MARK: - Head

  private mutating func parseHead() -> HTTPParserEvent? {
    while requestStart < buffer.count,
      buffer[requestStart] == HTTPBytes.cr || buffer[requestStart] == HTTPBytes.lf
    {
      requestStart += 1
    }
    cursor = max(cursor, requestStart)
    guard let headEnd = findHeadEnd() else {
      if buffer.count - requestStart > limits.maxHeaderBytes {
        return fail(.headerFieldsTooLarge, "request head larger than \(limits.maxHeaderBytes) bytes")
      }
      return nil
    }
    if headEnd - requestStart > limits.maxHeaderBytes {
      return fail(.headerFieldsTooLarge, "request head larger than \(limits.maxHeaderBytes) bytes")
    }
    switch HTTPHeadParser.parseHead(buffer[requestStart..<headEnd]) {
    case .failure(let failure):
      cursor = headEnd
      return fail(failure.outcome, failure.reason)
    case .success(let parsed):
      head = parsed
      cursor = headEnd
    }
    return chooseBodyFraming()
  }

  /// Finds the index just after the empty line that ends the head, scanning from `cursor`.
  private mutating func findHeadEnd() -> Int? {
    var lineStart = cursor
    while let newline = buffer[cursor...].firstIndex(of: HTTPBytes.lf) {
      let isEmpty = newline == lineStart || (newline == lineStart + 1 && buffer[lineStart] == HTTPBytes.cr)
      cursor = newline + 1
      if isEmpty && lineStart > requestStart { return cursor }
      lineStart = cursor
    }
    cursor = lineStart
    return nil
  }

  private mutating func chooseBodyFraming() -> HTTPParserEvent? {
    guard let head else { return nil }
    let headers = head.headers
    let fields = head.framingFields
    if let problem = fields.problem(version: head.version) { return fail(.badRequest, problem) }
    let wantsContinue =
      fields.contains(.expect) && head.version == "HTTP/1.1" && headers.hasToken("100-continue", in: "Expect")
    if fields.contains(.transferEncoding) {
      if let failure = Self.checkTransferEncoding(headers, version: head.version) {
        return fail(failure.outcome, failure.reason)
      }
      state = .chunkSize
    } else if fields.contains(.contentLength) {
      // One field of digits: a list, even of equal values (`3, 3`), is refused (RFC 9112 §6.3).
      guard let value = headers.values(for: "Content-Length").first, !value.isEmpty, value.utf8.count <= 18,
        value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(value)
      else {
        return fail(.badRequest, "invalid Content-Length")
      }
      if length > limits.maxBodyBytes {
        return fail(.contentTooLarge, "body of \(length) bytes exceeds \(limits.maxBodyBytes)")
      }
      if length == 0 { return .request(complete()) }
      // One allocation, not a doubling series, for head and body; the head moves out of `buffer`.
      sizedRequest.reserveCapacity(cursor - requestStart + length)
      sizedRequest.append(contentsOf: buffer[requestStart..<cursor])
      sizedBodyStart = sizedRequest.count
      requestStart = cursor
      compact()
      state = .fixedBody(remaining: length)
    } else {
      return .request(complete())
    }
    if wantsContinue && cursor == buffer.count {
      return .continueExpected
    }
    return next()
  }

  /// Why a request with `Transfer-Encoding` cannot be framed, or nil when it is plain `chunked`
  /// (RFC 9112 §6.1, §6.3): with `Content-Length` too it could be read two ways (request
  /// smuggling), so 400; a coding other than chunked (`gzip, chunked`) is not decoded, so 501
  /// rather than recording a body still encoded; chunked not last, twice, or in HTTP/1.0: 400.
  static func checkTransferEncoding(_ headers: HTTPHeaders, version: String)
    -> (outcome: HTTPFailureOutcome, reason: String)?
  {
    if headers.contains("Content-Length") {
      return (.badRequest, "both Transfer-Encoding and Content-Length (ambiguous framing)")
    }
    if version == "HTTP/1.0" { return (.badRequest, "Transfer-Encoding in an HTTP/1.0 request") }
    let codings = headers.values(for: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
      .map { String($0).trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
    guard codings.last == "chunked" else {
      return (.badRequest, "Transfer-Encoding does not end with chunked")
    }
    if codings.count == 1 { return nil }
    if codings.dropLast().contains("chunked") { return (.badRequest, "chunked applied more than once") }
    let others = codings.dropLast().joined(separator: ", ")
    return (.notImplemented, "Transfer-Encoding \(others) is not implemented (only chunked is decoded)")
  }

  // MARK: - Body

  /// Moves up to `wanted` buffered body bytes of a sized request to its own storage.
  private mutating func takeSizedBody(_ wanted: Int) -> Int {
    let taken = min(wanted, buffer.count - cursor)
    if taken > 0 {
      sizedRequest.append(contentsOf: buffer[cursor..<(cursor + taken)])
      cursor += taken
      requestStart = cursor
      compact()
    }
    return taken
  }

  private mutating func takeBody(_ wanted: Int) -> Int {
    let taken = min(wanted, buffer.count - cursor)
    if taken > 0 {
      body.append(contentsOf: buffer[cursor..<(cursor + taken)])
      cursor += taken
    }
    return taken
  }

  /// Reads one chunk-size line; returns a failure, or moves the state on (or leaves it to wait).
  private mutating func parseChunkSize() -> (outcome: HTTPFailureOutcome, reason: String)? {
    // The same limit whether or not the LF has arrived, so the answer never depends on how the
    // bytes were split.
    let newline = buffer[cursor...].firstIndex(of: HTTPBytes.lf)
    if (newline ?? buffer.count) - cursor > Self.maxChunkSizeLine {
      return (.badRequest, "chunk size line too long")
    }
    guard let newline else { return nil }
    var line = buffer[cursor..<newline]
    if line.last == HTTPBytes.cr { line.removeLast() }
    if let semicolon = line.firstIndex(of: HTTPBytes.semicolon) { line = line[..<semicolon] }
    while let last = line.last, last == HTTPBytes.space || last == HTTPBytes.tab { line.removeLast() }
    guard !line.isEmpty, line.count <= 15 else { return (.badRequest, "invalid chunk size") }
    var size = 0
    for byte in line {
      guard let digit = HTTPBytes.hexValue(byte) else { return (.badRequest, "invalid chunk size") }
      size = size * 16 + digit
    }
    if body.count + size > limits.maxBodyBytes {
      return (.contentTooLarge, "chunked body exceeds \(limits.maxBodyBytes) bytes")
    }
    cursor = newline + 1
    state = size == 0 ? .trailers(lineStart: cursor) : .chunkData(remaining: size)
    return nil
  }

  private mutating func parseTrailers() -> HTTPParserEvent? {
    while let newline = buffer[cursor...].firstIndex(of: HTTPBytes.lf) {
      var line = buffer[cursor..<newline]
      if line.last == HTTPBytes.cr { line.removeLast() }
      trailerBytes += newline + 1 - cursor
      cursor = newline + 1
      if line.isEmpty { return .request(complete()) }
      if trailerBytes > limits.maxHeaderBytes {
        return fail(.headerFieldsTooLarge, "trailers larger than \(limits.maxHeaderBytes) bytes")
      }
      if let reason = HTTPHeadParser.forbiddenByte(in: line) {
        return fail(.badRequest, "trailer: \(reason)")
      }
      switch HTTPHeadParser.parseField(line) {
      case .success(let field): trailers.add(field.name, field.value)
      case .failure(let error): return fail(.badRequest, "trailer: \(error.reason)")
      }
    }
    if buffer.count - cursor + trailerBytes > limits.maxHeaderBytes {
      return fail(.headerFieldsTooLarge, "trailers larger than \(limits.maxHeaderBytes) bytes")
    }
    return nil
  }

  // MARK: - Completion

  private mutating func complete() -> ParsedRequest {
    let request: ParsedRequest
    if sizedRequest.isEmpty {
      request = ParsedRequest(
        head: head!, body: body.isEmpty ? Data() : ParsedRequest.data(body[...]), trailers: trailers,
        rawBytes: .view(buffer[requestStart..<cursor]))
    } else {
      // raw takes the bytes, the array is freed, then body copies its part: two copies at most.
      let raw = Data(sizedRequest)
      sizedRequest = []
      request = ParsedRequest(
        head: head!, body: raw.subdata(in: sizedBodyStart..<raw.count), trailers: trailers,
        rawBytes: .data(raw))
      sizedBodyStart = 0
    }
    head = nil
    body = []
    trailers = HTTPHeaders()
    trailerBytes = 0
    state = .head
    requestStart = cursor
    // Not compacted here: the request views `buffer` until the next call to `next()`.
    return request
  }

  private mutating func compact() {
    if requestStart == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
      requestStart = 0
      cursor = 0
    } else if requestStart > 1 << 16 {
      buffer.removeFirst(requestStart)
      cursor -= requestStart
      requestStart = 0
    }
  }

  private mutating func fail(_ outcome: HTTPFailureOutcome, _ reason: String) -> HTTPParserEvent {
    let failure = makeFailure(outcome, reason)
    state = .failed
    return .failure(failure)
  }

  private mutating func makeFailure(_ outcome: HTTPFailureOutcome, _ reason: String) -> HTTPParseFailure {
    let kept = limits.maxHeaderBytes + (1 << 16)
    if !sizedRequest.isEmpty {
      let raw = Array(sizedRequest.prefix(kept))
      sizedRequest = []
      return HTTPParseFailure(outcome: outcome, reason: reason, head: head, raw: raw)
    }
    let end = min(buffer.count, requestStart + kept)
    return HTTPParseFailure(
      outcome: outcome, reason: reason, head: head, raw: Array(buffer[requestStart..<max(end, requestStart)]))
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }
}

/// Cuts a serialized chunked response into the pieces a paced response sends one at a time: the
/// head with the first chunk, then every later chunk ``ServerResponse/pacing`` after the one
/// before, the last with the terminating empty chunk.
enum PacedResponse {
  /// The most pieces one response is cut into; later chunks go with the last piece (every byte is
  /// still sent, only the pacing of the tail is given up).
  static let maxPieces = 256

  /// The lengths of the pieces of `bytes`, the serialized `response`; nil when the response is not
  /// paced or goes out in one piece (no body, HTTP/1.0, not chunked).
  static func pieceLengths(of response: ServerResponse, bytes: Int, method: String, version: String)
    -> [Int]?
  {
    guard response.pacing != nil, case .chunked(let chunks) = response.body, method != "HEAD",
      version != "HTTP/1.0", response.status >= 200, response.status != 204, response.status != 304
    else { return nil }
    let frames = chunks.filter { !$0.isEmpty }.map {
      String($0.count, radix: 16).utf8.count + 2 + $0.count + 2
    }
    let terminator = ResponseSerializer.lastChunkLength(trailers: response.trailers)  // "0\r\n…\r\n"
    let head = bytes - frames.reduce(0, +) - terminator
    guard frames.count > 1, head > 0 else { return nil }
    var pieces = [head + frames[0]] + frames.dropFirst()
    if pieces.count > maxPieces {
      let tail = pieces[(maxPieces - 1)...].reduce(0, +)
      pieces = Array(pieces.prefix(maxPieces - 1)) + [tail]
    }
    pieces[pieces.count - 1] += terminator
    return pieces
  }
}

extension ServerResponse {
  /// A copy whose chunks (of a `Body.chunked(_:)` body) are sent `interval` apart, as a stream
  /// the client reads while it arrives; other bodies are sent at once.
  public func paced(every interval: Duration) -> ServerResponse {
    var copy = self
    copy.pacing = interval
    return copy
  }
}

extension EventLoop {
  /// Queues `outgoing` in the pieces of a paced response, each ready one pacing interval after the
  /// one before; the last piece carries the record and what happens after it. Returns false
  /// (queueing nothing) when the response is not paced.
  func enqueuePaced(
    _ outgoing: OutgoingResponse, of response: ServerResponse, method: String, version: String,
    on connection: Connection
  ) -> Bool {
    guard let interval = response.pacing,
      let lengths = PacedResponse.pieceLengths(
        of: response, bytes: outgoing.bytes.count, method: method, version: version)
    else { return false }
    var start = 0
    var readyAt = outgoing.readyAt ?? loopTime
    for (index, length) in lengths.enumerated() {
      var piece = OutgoingResponse(
        bytes: Array(outgoing.bytes[start..<(start + length)]), readyAt: readyAt, after: .keepOpen)
      if index == lengths.count - 1 {
        piece.after = outgoing.after
        piece.logIndex = outgoing.logIndex
        piece.observed = outgoing.observed
      }
      connection.enqueue(piece)
      start += length
      readyAt += LoopTime.nanoseconds(interval)
    }
    return true
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Base64 of a compressed payload that a log wrapped into lines: MIME's 76 columns (`base64`,
/// Python's `encodebytes`), PEM's 64, or a wrapping logger's fixed width with its prefix (a
/// timestamp, a `[net 3/14] ` counter) on every line. A wrapped payload is one payload: its lines
/// are joined past their layout, as ``LineJunctionSearch`` joins the lines of a wrapped literal.
///
/// The run on the first line is still decoded on its own as well; the join is read in addition,
/// so a line that only seemed to continue the payload hides nothing.
struct WrappedPayload {
  /// Each line's share of the payload in the text, in order: the end of the run on the first
  /// line (from the start of its last piece), then each continuation past its layout.
  var segments: [Range<Int>]

  /// What joining the lines after a run found.
  enum Outcome {
    /// The run is not the start of a wrapped payload.
    case none
    /// The payload's lines.
    case joined(WrappedPayload)
    /// The payload may go on past the text looked at: it is read once the rest is there.
    case unfinished
  }

  /// The fewest characters of a payload tested for a compressed stream's first bytes.
  static let headLength = 16

  /// The lines after `run` (a base64 run of `text`) that continue it, read in `text[..<limit]`;
  /// `final` when the text ends at `limit`; `lastPieceOpens` when the base64 decoder read the
  /// run's last piece as a compressed payload; `firstLineHead` holds the first bytes of the line
  /// `text` begins inside, when it began before `text`. Joined only when the run ends its line
  /// without padding and its last piece, continued on the next lines, starts as a compressed
  /// stream does; the lines after the first continuation join while each is as wide as it, up to
  /// one that is narrower, padded, or followed by other text.
  static func join(
    _ text: UnsafePointer<UInt8>, run: Range<Int>, limit: Int, final: Bool, lastPieceOpens: Bool,
    firstLineHead: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
  ) -> Outcome {
    guard run.upperBound < limit, ContinuationLines.isBreak(text[run.upperBound]),
      text[run.upperBound - 1] != equals
    else {
      return run.upperBound == limit && !final ? .unfinished : .none
    }
    // The run's last piece: after its last padding. One with `\` or `%` (JSON-escaped or
    // percent-encoded base64) is not joined.
    let pieceStart = EncodedRun.last(equals, in: text, run).map { $0 + 1 } ?? run.lowerBound
    let first = pieceStart..<run.upperBound
    // A piece long enough to read was tested by the base64 decoder already (`lastPieceOpens`).
    if first.count >= Base64RunDecoder.minimumLength {
      guard lastPieceOpens else { return .none }
    } else if first.count >= headLength && !startsCompressed(text, [first]) {
      return .none
    }
    guard memchr(text + pieceStart, 0x5C, first.count) == nil,
      memchr(text + pieceStart, 0x25, first.count) == nil
    else { return .none }
    var reader = ContinuationLines.Reader(text, run: run, firstLineHead: firstLineHead)
    let values = Base64RunDecoder.values  // once: a static read in the loop costs a `swift_once` each
    var segments = [first]
    var lineEnd = run.upperBound
    var width: Int?
    lines: while true {
      let start: Int
      switch reader.continuation(text, after: lineEnd, limit: limit, final: final) {
      case .line(_, let textStart): start = textStart
      case .end: break lines
      case .unfinished: return .unfinished
      }
      var end = start
      while end < limit && values[Int(text[end])] != 0xFF { end += 1 }
      var padded = end
      while padded < limit && text[padded] == equals { padded += 1 }
      if padded == limit && !final { return .unfinished }
      guard end > start else { break }
      // The last line: padded, followed by other text, or narrower than the lines before it.
      let isLast =
        padded > end || padded == limit || !ContinuationLines.isBreak(text[padded])
        || width.map { end - start < $0 } == true
      if !isLast, let width, end - start != width { break }
      segments.append(start..<padded)
      if isLast { break }
      width = width ?? end - start
      lineEnd = padded
    }
    guard segments.count > 1, first.count >= headLength || startsCompressed(text, segments) else {
      return .none
    }
    return .joined(WrappedPayload(segments: segments))
  }

  /// Whether the first ``headLength`` characters of `segments` decode to bytes a compressed
  /// stream may start with.
  static func startsCompressed(_ text: UnsafePointer<UInt8>, _ segments: [Range<Int>]) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: headLength) { characters in
      var count = 0
      for segment in segments { gather(text, segment, into: characters, count: &count) }
      return Base64RunDecoder.startsCompressed(characters.baseAddress!, 0..<count)
    }
  }

  /// Whether the first ``headLength`` characters of `first` and then `second` decode to bytes a
  /// compressed stream may start with (as ``startsCompressed(_:_:)`` reads two segments, with no
  /// array of them).
  static func startsCompressed(_ text: UnsafePointer<UInt8>, _ first: Range<Int>, then second: Range<Int>)
    -> Bool
  {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: headLength) { characters in
      var count = 0
      gather(text, first, into: characters, count: &count)
      gather(text, second, into: characters, count: &count)
      return Base64RunDecoder.startsCompressed(characters.baseAddress!, 0..<count)
    }
  }

  /// Appends the characters of `text[segment]` but padding to `characters[..<count]`, up to
  /// ``headLength`` of them.
  @inline(__always)
  private static func gather(
    _ text: UnsafePointer<UInt8>, _ segment: Range<Int>, into characters: UnsafeMutableBufferPointer<UInt8>,
    count: inout Int
  ) {
    for index in segment where count < headLength && text[index] != equals {
      characters[count] = text[index]
      count += 1
    }
  }

  /// The pieces the joined lines hold that cross the first line's end, placed on the text: those
  /// within the first line are read with its run, those starting later with their own line's.
  func decode(_ text: UnsafePointer<UInt8>, with decoder: Base64RunDecoder) -> [DecodedPiece] {
    let (joined, joinedOrigins) = ContinuationLines.joined(text, segments)
    let origins = joinedOrigins + [segments[segments.count - 1].upperBound]
    let seam = segments[0].count
    let count = joinedOrigins.count
    var pieces: [DecodedPiece] = []
    joined.withUnsafeBufferPointer { buffer in
      decoder.decodePieces(buffer.baseAddress!, count: count, crossing: seam, into: &pieces)
    }
    for index in pieces.indices {
      let range = pieces[index].span
      pieces[index].span = origins[range.lowerBound]..<origins[range.upperBound - 1] + 1
    }
    return pieces
  }

  private static let equals = UInt8(ascii: "=")
}

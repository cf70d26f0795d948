#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Percent-encoded text a wrapping logger cut into lines: a URL or a form body over fixed-width
/// lines, each continuation under the logger's prefix (a timestamp, a `[net 2/3] ` counter) or
/// indentation. Its lines are one run: joined past their layout, as ``LineJunctionSearch`` joins
/// the lines of a wrapped literal, and read decoded as one (``PercentRunDecoder``), so a value cut
/// at a line's end is found whole, and so is an escape cut inside (`%` ending one line, `21`
/// starting the next).
///
/// The run on the first line is still decoded on its own as well, and so is each continuation's;
/// the join is read in addition.
struct WrappedPercentRun {
  /// Each line's share of the run in the text, in order: the run on the first line, then each
  /// continuation's URL bytes past its layout.
  var segments: [Range<Int>]

  /// What joining the lines after a run found.
  enum Outcome {
    /// The run does not go on on the next line.
    case none
    /// The run's lines.
    case joined(WrappedPercentRun)
    /// The run may go on past the text looked at: it is read once the rest is there.
    case unfinished
  }

  /// The most lines joined after the first: a value wrapped over up to ten lines is read whole,
  /// as ``LineJunctionSearch`` reads a literal.
  static let maxFurtherLines = 9

  /// The lines after `run` (a percent run of `text` ending its line) that continue it, read in
  /// `text[..<limit]`; `final` when the text ends at `limit`; `firstLineHead` holds the first
  /// bytes of the line `text` begins inside, when it began before `text`. A continuation joins
  /// when its URL bytes, past its layout, reach its line's end; the line after the last such one
  /// joins too, up to its first byte that is no URL byte (the rest of the message). The lines
  /// after the first continuation join while each is as wide as it.
  static func join(
    _ text: UnsafePointer<UInt8>, run: Range<Int>, limit: Int, final: Bool,
    firstLineHead: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
  ) -> Outcome {
    guard run.upperBound < limit, isBreak(text[run.upperBound]) else {
      return run.upperBound == limit && !final ? .unfinished : .none
    }
    var lineStart = run.lowerBound
    while lineStart > 0 && text[lineStart - 1] != 0x0A { lineStart -= 1 }
    let head =
      lineStart == 0 && !firstLineHead.isEmpty
      ? firstLineHead
      : UnsafeBufferPointer(
        start: text + lineStart, count: min(LineJunctionSearch.maxRepeatedPrefix, run.upperBound - lineStart))
    var segments = [run]
    var lineEnd = run.upperBound
    var width: Int?
    while segments.count <= maxFurtherLines {
      // `text[lineEnd]` ends a line: `\n`, or `\r` before one.
      var next = lineEnd
      if text[next] == 0x0D {
        next += 1
        if next == limit {
          if final { break }
          return .unfinished
        }
        guard text[next] == 0x0A else { break }
      }
      next += 1
      if next == limit {
        if final { break }
        return .unfinished
      }
      guard !isBreak(text[next]) else { break }
      let layoutEnd = min(limit, next + LineJunctionSearch.maxLayoutBytes)
      let start = LineJunctionSearch.continuationLayout(text, lineHead: head, continuation: next..<layoutEnd)
        .indented
      var end = start
      while end < limit && EncodedRun.urlBytes[Int(text[end])] { end += 1 }
      if end == limit && !final { return .unfinished }
      guard end > start else { break }
      let endsLine = end == limit || isBreak(text[end])
      // A continuation wider than the first is another message.
      if let width, endsLine, end - start > width { break }
      segments.append(start..<end)
      // The last line: the message goes on past the URL, or the line is narrower.
      if !endsLine || end == limit || width.map({ end - start < $0 }) == true { break }
      width = width ?? end - start
      lineEnd = end
    }
    guard segments.count > 1 else { return .none }
    return .joined(WrappedPercentRun(segments: segments))
  }

  /// The pieces the joined lines decode to, each byte placed on its characters in the text.
  func decode(_ text: UnsafePointer<UInt8>, with decoder: PercentRunDecoder) -> [DecodedPiece] {
    var joined: [UInt8] = []
    var origins: [Int] = []
    for segment in segments {
      joined.append(contentsOf: UnsafeBufferPointer(start: text + segment.lowerBound, count: segment.count))
      origins.append(contentsOf: segment)
    }
    let count = joined.count
    joined.append(contentsOf: repeatElement(0, count: 8))
    var pieces: [DecodedPiece] = []
    joined.withUnsafeBufferPointer { buffer in
      decoder.decode(buffer.baseAddress!, count: count, run: 0..<count, into: &pieces)
    }
    for index in pieces.indices {
      pieces[index].starts = pieces[index].starts.map { Int32(origins[Int($0)]) }
      pieces[index].ends = pieces[index].ends.map { Int32(origins[Int($0) - 1] + 1) }
      pieces[index].span = segments[0].lowerBound..<segments[segments.count - 1].upperBound
    }
    return pieces
  }

  @inline(__always)
  private static func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
}

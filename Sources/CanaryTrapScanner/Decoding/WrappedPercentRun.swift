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
  /// after the first continuation join while each is as wide as it. The lines join only when
  /// `filter` (the matcher's ``JunctionFilter``) lets the decoded bytes across a seam through.
  static func join(
    _ text: UnsafePointer<UInt8>, run: Range<Int>, limit: Int, final: Bool, filter: JunctionFilter,
    firstLineHead: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
  ) -> Outcome {
    guard run.upperBound < limit, ContinuationLines.isBreak(text[run.upperBound]) else {
      return run.upperBound == limit && !final ? .unfinished : .none
    }
    var reader = ContinuationLines.Reader(text, run: run, firstLineHead: firstLineHead)
    let urlBytes = EncodedRun.urlBytes  // once: a static read in the loop costs a `swift_once` each
    var segments = [run]
    var lineEnd = run.upperBound
    var width: Int?
    lines: while segments.count <= maxFurtherLines {
      let start: Int
      switch reader.continuation(text, after: lineEnd, limit: limit, final: final) {
      case .line(_, let textStart): start = textStart
      case .end: break lines
      case .unfinished: return .unfinished
      }
      // An empty line (its layout is then empty too) ends the run.
      guard !ContinuationLines.isBreak(text[start]) else { break }
      var end = start
      while end < limit && urlBytes[Int(text[end])] { end += 1 }
      if end == limit && !final { return .unfinished }
      guard end > start else { break }
      let endsLine = end == limit || ContinuationLines.isBreak(text[end])
      // A continuation wider than the first is another message.
      if let width, endsLine, end - start > width { break }
      segments.append(start..<end)
      // The last line: the message goes on past the URL, or the line is narrower.
      if !endsLine || end == limit || width.map({ end - start < $0 }) == true { break }
      width = width ?? end - start
      lineEnd = end
    }
    guard segments.count > 1 else { return .none }
    let wrapped = WrappedPercentRun(segments: segments)
    // Joined and searched only when a literal may cross a seam: the decoded bytes on both sides
    // of one pass `filter`, as the bytes of a line junction do.
    guard (1..<segments.count).contains(where: { wrapped.seamMayHoldLiteral(text, $0, filter: filter) })
    else {
      return .none
    }
    return .joined(wrapped)
  }

  /// The most characters read on each side of a seam to decode 8 bytes there: three per escape,
  /// and two more where the first falls inside one.
  static let seamReach = 26

  /// Whether the decoded bytes around the seam before `segments[seam]` may hold a literal cut
  /// there, by `filter`: the cut is tried on both sides of a byte whose escape the seam splits.
  func seamMayHoldLiteral(_ text: UnsafePointer<UInt8>, _ seam: Int, filter: JunctionFilter) -> Bool {
    if filter.passesAll { return true }
    let left = segments[seam - 1]
    let right = segments[seam]
    let reach = Self.seamReach
    let leftStart = max(left.lowerBound, left.upperBound - reach)
    let leftCount = left.upperBound - leftStart
    let rightCount = min(right.count, reach)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * reach) { scratch in
      let characters = scratch.baseAddress!
      let bytes = characters + 2 * reach
      characters.update(from: text + leftStart, count: leftCount)
      (characters + leftCount).update(from: text + right.lowerBound, count: rightCount)
      let count = leftCount + rightCount
      // Decoded bytes; the cut falls after the last byte whose characters end at or before the
      // seam, and after the one whose escape the seam splits, if any.
      let digits = HexDigit.values
      var decoded = 0
      var index = 0
      var cut = -1
      var splitCut = -1
      while index < count {
        let start = index
        if let escaped = HexDigit.percentEscape(in: characters, at: index, end: count, digits: digits) {
          bytes[decoded] = escaped
          index += 3
        } else {
          bytes[decoded] = characters[index]
          index += 1
        }
        decoded += 1
        if cut < 0 && index > leftCount {
          cut = decoded - 1
          if start < leftCount { splitCut = decoded }
        }
      }
      for cut in [cut, splitCut] where cut > 0 && cut < decoded {
        var leftWord: UInt64 = 0
        var spacedLeft: UInt64 = 0
        for offset in 0..<min(8, cut) {
          let byte = bytes[cut - 1 - offset]
          leftWord |= UInt64(byte) &<< UInt64(8 * (7 - offset))
          spacedLeft |= UInt64(byte == 0x2B ? 0x20 : byte) &<< UInt64(8 * (7 - offset))
        }
        var rightWord: UInt64 = 0
        var spacedRight: UInt64 = 0
        for offset in 0..<min(8, decoded - cut) {
          let byte = bytes[cut + offset]
          rightWord |= UInt64(byte) &<< UInt64(8 * offset)
          spacedRight |= UInt64(byte == 0x2B ? 0x20 : byte) &<< UInt64(8 * offset)
        }
        let leftCount = min(8, cut)
        let rightCount = min(7, decoded - cut)
        // Read with `+` as a space too, as a form decodes it.
        if filter.mayJoin(left: leftWord, leftCount: leftCount, right: rightWord, rightCount: rightCount)
          || (spacedLeft != leftWord || spacedRight != rightWord)
            && filter.mayJoin(
              left: spacedLeft, leftCount: leftCount, right: spacedRight, rightCount: rightCount)
        {
          return true
        }
      }
      return false
    }
  }

  /// The pieces the joined lines decode to, each byte placed on its characters in the text.
  func decode(_ text: UnsafePointer<UInt8>, with decoder: PercentRunDecoder) -> [DecodedPiece] {
    let (joined, origins) = ContinuationLines.joined(text, segments)
    let count = origins.count
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
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds canaries a wrapping logger cut across lines: at each line break it joins the end of one
/// line with the start of the next (past the indentation or repeated prefix the logger put there),
/// and the lines after it while they are shorter than a literal, and searches the joined bytes for
/// forms that span the junction.
///
/// The joined buffer holds at most ``CompiledMatcher/maxLength`` bytes from each side, so it is
/// bounded whatever the lines. Matches wholly on one side are left to the main pass. A match is
/// reported with its span in the text, line break included, and keeps its form's encoding name:
/// wrapping is layout, as for MIME-wrapped base64. Not thread-safe: one per ``ScanStream``.
final class LineJunctionSearch {
  /// The most spaces and tabs skipped at the start of a continuation line.
  static let maxIndentation = 64
  /// The longest prefix (a timestamp, a level) a continuation line may repeat from the line it
  /// continues; it must end in a space, a tab, or a `:`, `|` or `]` (Python's `DEBUG:app:`).
  static let maxRepeatedPrefix = 64
  /// The most lines after the first continuation joined on when the lines are shorter than a
  /// literal: a value wrapped over up to ten lines is found.
  static let maxFurtherLines = 8
  /// The most bytes a junction match adds to a literal: its line breaks, each with a repeated
  /// prefix and its indentation.
  static let maxLayoutBytes = (1 + maxFurtherLines) * (2 + maxRepeatedPrefix + maxIndentation)
  /// The fewest bytes a fragment keeps on each side of the junction: a shorter side is more
  /// likely chance than the value going on (15 bytes of a token at a line's end and the `W` of
  /// the next line's `WARN` read as 16, case folded).
  static let fewestFragmentBytesPerSide = 4

  private let matcher: CompiledMatcher
  private let filter: JunctionFilter
  /// The filter of the literals holding a blank, for the starts that begin with one.
  private let blankFilter: JunctionFilter
  private let literalsMayHoldBlanks: Bool
  /// Whether junctions are searched at all (``ScanOptions/joinsWrappedLines``).
  let isEnabled: Bool
  /// Bytes taken from each side of a junction: the longest span a match can cover.
  private let reach: Int
  private let scratch: UnsafeMutablePointer<UInt8>
  private var found: [MatchCandidate] = []
  /// What is joined after the left side of a junction: its continuation, then the lines after it.
  private var pieces: [Range<Int>] = []
  /// How many junctions were joined and searched, for tests.
  private(set) var junctionsSearched = 0

  init(matcher: CompiledMatcher, isEnabled: Bool = true) {
    self.matcher = matcher
    self.isEnabled = isEnabled
    filter = matcher.junctionFilter
    blankFilter = matcher.blankJunctionFilter
    literalsMayHoldBlanks = matcher.literalsMayHoldBlanks
    reach = matcher.maxLength
    scratch = .allocate(capacity: 2 * reach + 8)
    scratch.initialize(repeating: 0, count: 2 * reach + 8)
  }

  deinit { scratch.deallocate() }

  /// Appends every match that spans the line break ending a line of `text[0..<count]` that
  /// starts in `lines` to `candidates`, with its span in `text`; `cache` keeps the literals of
  /// the canaries found lately. `lines` starts at 0 or at a line's start; `firstLineHead` holds
  /// the start of the line `text` begins inside, when it began before `text` and `lines` starts
  /// at 0.
  ///
  /// `text` must have 8 readable bytes past `count`, as for ``CompiledMatcher/findCandidates``.
  func search(
    _ text: UnsafePointer<UInt8>, count: Int, lines: Range<Int>, firstLineHead: [UInt8],
    cache: inout CanaryTargetsCache, into candidates: inout [MatchCandidate]
  ) {
    guard isEnabled else { return }
    firstLineHead.withUnsafeBufferPointer { firstLineHead in
      var lineHead = firstLineHead
      var lineStart = lines.lowerBound
      while lineStart < min(count, lines.upperBound) {
        guard let lineFeed = EncodedRun.first(0x0A, in: text, lineStart..<count) else { return }
        let leftEnd = lineFeed > lineStart && text[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
        let next = lineFeed + 1
        if leftEnd > lineStart, next < count {
          let head =
            lineHead.isEmpty
            ? UnsafeBufferPointer(start: text + lineStart, count: leftEnd - lineStart) : lineHead
          join(
            text, count: count, line: lineStart..<leftEnd, head: head, continuation: next, cache: &cache,
            into: &candidates)
        }
        lineHead = UnsafeBufferPointer(start: nil, count: 0)
        lineStart = next
      }
    }
  }

  /// Searches the junction of `line` (whose first bytes are `head`) with the line starting at
  /// `continuation`, at every place the continued text may start there.
  @inline(__always)
  private func join(
    _ text: UnsafePointer<UInt8>, count: Int, line: Range<Int>, head: UnsafeBufferPointer<UInt8>,
    continuation: Int, cache: inout CanaryTargetsCache, into candidates: inout [MatchCandidate]
  ) {
    let first = text[continuation]
    guard !ContinuationLines.isBreak(first) else { return }
    let left = max(line.lowerBound, line.upperBound - reach)..<line.upperBound
    let leftWord = Self.word(endingAt: left.upperBound, in: text)
    // The lines after it are read against this continuation's prefix, not the first line's text
    // (``ContinuationLines/Reader``).
    var reader = ContinuationLines.Reader(head: head)
    let layout = reader.layout(text, of: continuation, limit: count)
    // The continued text starts after the layout, one byte earlier when it starts with a blank
    // itself, or at the line's start when only blanks were skipped.
    let indented = layout.indented
    join(
      text, count: count, left: left, leftWord: leftWord, start: indented, filter: filter, reader: reader,
      cache: &cache, into: &candidates)
    // The other starts begin with a blank: only a literal holding one can cross the seam there.
    guard literalsMayHoldBlanks else { return }
    if indented > continuation {
      join(
        text, count: count, left: left, leftWord: leftWord, start: indented - 1, filter: blankFilter,
        reader: reader, cache: &cache, into: &candidates)
    }
    if layout.prefixEnd == continuation, indented - 1 > continuation {
      join(
        text, count: count, left: left, leftWord: leftWord, start: continuation, filter: blankFilter,
        reader: reader, cache: &cache, into: &candidates)
    }
  }

  /// Searches `left` (whose last 8 bytes are `leftWord`) joined with the text at `start`, up to
  /// its line's end, when `filter` lets the bytes across the seam through; the rest of the
  /// line is read only then. Lines shorter than the reach may hold the middle of a value whole:
  /// the lines after it (past their layout, as `reader` reads it) are joined on too, up to the
  /// reach and ``maxFurtherLines``.
  @inline(__always)
  private func join(
    _ text: UnsafePointer<UInt8>, count: Int, left: Range<Int>, leftWord: UInt64, start: Int,
    filter: JunctionFilter, reader: ContinuationLines.Reader, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    guard start < count else { return }
    let rightWord = UInt64(littleEndian: UnsafeRawPointer(text + start).loadUnaligned(as: UInt64.self))
    let rightCount = min(7, count - start, Self.firstBreak(in: rightWord))
    guard rightCount > 0,
      filter.mayJoin(left: leftWord, leftCount: left.count, right: rightWord, rightCount: rightCount)
    else { return }
    var end = start + rightCount
    var budget = reach
    while end < min(count, start + budget), !ContinuationLines.isBreak(text[end]) { end += 1 }
    budget -= end - start
    // Lines shorter than a literal: the next ones continue the value, to the reach.
    pieces.removeAll(keepingCapacity: true)
    pieces.append(start..<end)
    var lineEnd = end
    var reader = reader
    while budget > 0, pieces.count <= Self.maxFurtherLines,
      let next = nextContinuation(text, count: count, lineEnd: lineEnd, reader: &reader, reach: budget)
    {
      pieces.append(next)
      budget -= next.count
      lineEnd = next.upperBound
    }
    search(text, left: left, cache: &cache, into: &candidates)
  }

  /// The text of the line after the one ending at `lineEnd` (a line break), past the layout a
  /// wrapping logger put there (as `reader` reads it), at most `reach` bytes and up to its own
  /// end; `nil` when there is no such line in `text[0..<count]`.
  @inline(__always)
  private func nextContinuation(
    _ text: UnsafePointer<UInt8>, count: Int, lineEnd: Int, reader: inout ContinuationLines.Reader, reach: Int
  ) -> Range<Int>? {
    guard lineEnd < count, ContinuationLines.isBreak(text[lineEnd]),
      case .line(_, let start) = reader.continuation(text, after: lineEnd, limit: count, final: true)
    else { return nil }
    let limit = min(count, start + reach)
    var end = start
    while end < limit, !ContinuationLines.isBreak(text[end]) { end += 1 }
    return end > start ? start..<end : nil
  }

  /// The 8 bytes ending at `end` in `text`, little-endian; when fewer precede `end`, those that
  /// do, in the top bytes.
  @inline(__always)
  private static func word(endingAt end: Int, in text: UnsafePointer<UInt8>) -> UInt64 {
    if end >= 8 {
      return UInt64(littleEndian: UnsafeRawPointer(text + end - 8).loadUnaligned(as: UInt64.self))
    }
    var word: UInt64 = 0
    for index in 0..<end { word |= UInt64(text[index]) &<< UInt64(8 * (8 - end + index)) }
    return word
  }

  /// The high bit of every byte of `word` that is 0, and no other bit.
  @inline(__always)
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    let low = 0x7F7F_7F7F_7F7F_7F7F as UInt64
    return ~(((word & low) &+ low) | word | low)
  }

  /// The index of the first line feed or carriage return among the bytes of `word`, 8 if none.
  @inline(__always)
  private static func firstBreak(in word: UInt64) -> Int {
    let breaks = zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A) | zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
    return breaks.trailingZeroBitCount / 8
  }

  /// The layout a wrapping logger put at the start of a continuation line: the end of the prefix
  /// it repeats from the line it continues (whose first bytes are `lineHead`), ending in a blank
  /// or a separator (``lastSeparatorEnd(in:count:)``), at most ``maxRepeatedPrefix`` bytes, and the end of the blanks after it, at most
  /// ``maxIndentation``. Reads 8 bytes at a time: `text` must have 8 readable bytes past the
  /// continuation's range.
  static func continuationLayout(
    _ text: UnsafePointer<UInt8>, lineHead: UnsafeBufferPointer<UInt8>, continuation: Range<Int>
  ) -> (prefixEnd: Int, indented: Int) {
    let start = continuation.lowerBound
    let limit = min(maxRepeatedPrefix, lineHead.count, continuation.count)
    var common = 0
    if let head = lineHead.baseAddress {
      var differs = false
      while common + 8 <= limit {
        let difference =
          UnsafeRawPointer(head + common).loadUnaligned(as: UInt64.self)
          ^ UnsafeRawPointer(text + start + common).loadUnaligned(as: UInt64.self)
        if difference != 0 {
          common += UInt64(littleEndian: difference).trailingZeroBitCount / 8
          differs = true
          break
        }
        common += 8
      }
      while !differs, common < limit, head[common] == text[start + common] { common += 1 }
      // A prefix of the same shape whose numbers differ (a counter, a timestamp, a thread id)
      // is the continuation's prefix too.
      if differs || common < min(maxRepeatedPrefix, continuation.count) {
        common = max(
          common,
          sameShapeLength(
            head, count: min(maxRepeatedPrefix, lineHead.count), text + start,
            count: min(maxRepeatedPrefix, continuation.count)))
      }
    }
    let prefixEnd = start + lastSeparatorEnd(in: text + start, count: common)
    var indented = prefixEnd
    while indented < continuation.upperBound, indented - prefixEnd < maxIndentation,
      ContinuationLines.isBlank(text[indented])
    {
      indented += 1
    }
    return (prefixEnd, indented)
  }

  /// The longest digit run a prefix may show at another length on another line: `[net 9/14]`
  /// and `[net 10/14]`, a thread id.
  static let longestVaryingDigits = 6

  /// How many bytes of `continuation` start the same way `head` does when every run of digits
  /// counts as one, whatever its value, and whatever its length up to ``longestVaryingDigits``:
  /// `[net 3/14] ` and `[net 10/14] `, `12:00:01.250 ` and `12:00:02.007 `.
  static func sameShapeLength(
    _ head: UnsafePointer<UInt8>, count headCount: Int, _ continuation: UnsafePointer<UInt8>, count: Int
  ) -> Int {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    // The digit runs of both sides around `index` and `matched`, and whether they count as one:
    // runs of other lengths are a prefix's only while short (a counter, a thread id); a long one
    // is the lines' text (the end of a hex value under a line's long number).
    func digitRuns(_ index: Int, _ matched: Int) -> (starts: (Int, Int), ends: (Int, Int), match: Bool) {
      var (headStart, start) = (index, matched)
      while headStart > 0 && isDigit(head[headStart - 1]) { headStart -= 1 }
      while start > 0 && isDigit(continuation[start - 1]) { start -= 1 }
      var (headEnd, end) = (index, matched)
      while headEnd < headCount && isDigit(head[headEnd]) { headEnd += 1 }
      while end < count && isDigit(continuation[end]) { end += 1 }
      let lengths = (headEnd - headStart, end - start)
      return (
        (headStart, start), (headEnd, end),
        lengths.0 == lengths.1 || max(lengths.0, lengths.1) <= longestVaryingDigits
      )
    }
    var index = 0
    var matched = 0
    while index < headCount && matched < count {
      // 8 bytes at once when both have digits in the same places and the same bytes elsewhere
      // (a timestamp against a timestamp); a digit run touching the word's end may go on in one
      // side only, which the bytes after it tell.
      if index + 8 <= headCount && matched + 8 <= count {
        let expected = UnsafeRawPointer(head + index).loadUnaligned(as: UInt64.self)
        let found = UnsafeRawPointer(continuation + matched).loadUnaligned(as: UInt64.self)
        if expected == found {
          index += 8
          matched += 8
          continue
        }
        let digits = digitBytes(expected)
        if digits == digitBytes(found) && (expected ^ found) & ~digits == 0 {
          index += 8
          matched += 8
          continue
        }
      }
      let expected = head[index]
      let found = continuation[matched]
      let expectedIsDigit = isDigit(expected)
      let foundIsDigit = isDigit(found)
      if expectedIsDigit || foundIsDigit {
        // A digit run on both sides (begun here, or before on both) counts as one.
        let bothBefore =
          index > 0 && matched > 0 && isDigit(head[index - 1]) && isDigit(continuation[matched - 1])
        if expectedIsDigit && foundIsDigit || bothBefore {
          let runs = digitRuns(index, matched)
          guard runs.match else {
            (index, matched) = runs.starts
            break
          }
          (index, matched) = runs.ends
          continue
        }
      }
      guard expected == found else { break }
      index += 1
      matched += 1
    }
    // A digit run both sides end with goes on in the continuation as far as it goes.
    if index > 0 && matched > 0 && isDigit(head[index - 1]) && isDigit(continuation[matched - 1]) {
      let runs = digitRuns(index, matched)
      matched = runs.match ? runs.ends.1 : runs.starts.1
    }
    return matched
  }

  /// `0xFF` in every byte of `word` that is an ASCII digit, `0x00` in the others.
  @inline(__always)
  static func digitBytes(_ word: UInt64) -> UInt64 {
    let low = word & 0x7F7F_7F7F_7F7F_7F7F
    // The high bit of each byte: at least `0`, and not past `9`, and below 0x80.
    let digits =
      (low &+ 0x5050_5050_5050_5050) & ~(low &+ 0x4646_4646_4646_4646) & ~word & 0x8080_8080_8080_8080
    return (digits &>> 7) &* 0xFF
  }

  /// The length of the longest start of `bytes[0..<count]` that ends in a blank or in a `:`,
  /// `|` or `]` (`DEBUG:app:`, `INFO|net|`), 0 if none: 8 bytes at a time from the end (reads up
  /// to 8 bytes past `count` when it is under 8).
  @inline(__always)
  private static func lastSeparatorEnd(in bytes: UnsafePointer<UInt8>, count: Int) -> Int {
    var end = count
    while end > 0 {
      let chunk = max(0, end - 8)
      let word = UInt64(littleEndian: UnsafeRawPointer(bytes + chunk).loadUnaligned(as: UInt64.self))
      var separators =
        zeroBytes(word ^ 0x2020_2020_2020_2020) | zeroBytes(word ^ 0x0909_0909_0909_0909)
        | zeroBytes(word ^ 0x3A3A_3A3A_3A3A_3A3A) | zeroBytes(word ^ 0x7C7C_7C7C_7C7C_7C7C)
        | zeroBytes(word ^ 0x5D5D_5D5D_5D5D_5D5D)
      let valid = end - chunk
      if valid < 8 { separators &= (1 &<< UInt64(8 * valid)) &- 1 }
      if separators != 0 { return chunk + (63 - separators.leadingZeroBitCount) / 8 + 1 }
      end = chunk
    }
    return 0
  }

  /// Joins `left` and the ``pieces`` after it, searches them, and keeps the matches crossing the
  /// first seam (a fragment only with ``fewestFragmentBytesPerSide`` on each side), except one
  /// whose bytes left of the seam also stand just before the first piece (in the continuation's
  /// layout): that literal lies whole in the text, where the main pass finds it at its own column.
  private func search(
    _ text: UnsafePointer<UInt8>, left: Range<Int>, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    junctionsSearched += 1
    scratch.update(from: text + left.lowerBound, count: left.count)
    var joined = left.count
    for piece in pieces {
      (scratch + joined).update(from: text + piece.lowerBound, count: piece.count)
      joined += piece.count
    }
    (scratch + joined).update(repeating: 0, count: 8)
    found.removeAll(keepingCapacity: true)
    matcher.findCandidates(in: scratch, count: joined, cache: &cache, into: &found)
    let seam = left.count
    let right = pieces[0]
    for var match in found where match.start < seam && match.end > seam {
      let leftPart = seam - match.start
      if match.rank == .fragment, min(leftPart, match.end - seam) < Self.fewestFragmentBytesPerSide {
        continue
      }
      if match.end - seam <= right.count, right.lowerBound >= leftPart,
        memcmp(text + right.lowerBound - leftPart, scratch + match.start, leftPart) == 0
      {
        continue
      }
      match.start += left.lowerBound
      // The end lies in the piece whose joined bytes hold it.
      var pieceStart = seam
      for piece in pieces {
        if match.end <= pieceStart + piece.count {
          match.end = piece.lowerBound + match.end - pieceStart
          break
        }
        pieceStart += piece.count
      }
      candidates.append(match)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds canaries a wrapping logger cut across two lines: at each line break it joins the end of
/// one line with the start of the next (past the indentation or repeated prefix the logger put
/// there) and searches the joined bytes for forms that span the junction.
///
/// The joined buffer holds at most ``CompiledMatcher/maxLength`` bytes from each side, so it is
/// bounded whatever the lines. Matches wholly on one side are left to the main pass. A match is
/// reported with its span in the text, line break included, and keeps its form's encoding name:
/// wrapping is layout, as for MIME-wrapped base64. Not thread-safe: one per ``ScanStream``.
final class LineJunctionSearch {
  /// The most spaces and tabs skipped at the start of a continuation line.
  static let maxIndentation = 64
  /// The longest prefix (a timestamp, a level) a continuation line may repeat from the line it
  /// continues; it must end in a space or a tab.
  static let maxRepeatedPrefix = 64
  /// The most bytes a junction match adds to a literal: the line break, a repeated prefix and
  /// its indentation.
  static let maxLayoutBytes = 2 + maxRepeatedPrefix + maxIndentation

  private let matcher: CompiledMatcher
  private let filter: JunctionFilter
  /// Bytes taken from each side of a junction: the longest span a match can cover.
  private let reach: Int
  private let scratch: UnsafeMutablePointer<UInt8>
  private var found: [MatchCandidate] = []
  /// The start of the current line when it began before the text searched, else empty.
  private var lineHead: [UInt8] = []
  /// How many junctions were joined and searched, for tests.
  private(set) var junctionsSearched = 0

  init(matcher: CompiledMatcher, filter: JunctionFilter) {
    self.matcher = matcher
    self.filter = filter
    reach = matcher.maxLength
    scratch = .allocate(capacity: 2 * reach + 8)
    scratch.initialize(repeating: 0, count: 2 * reach + 8)
  }

  deinit { scratch.deallocate() }

  /// Appends every match that spans a line break of `text[0..<count]` to `candidates`, with its
  /// span in `text`; `cache` keeps the literals of the canaries found lately. `firstLineHead`
  /// holds the start of the line `text` begins inside, when it began before `text`.
  func search(
    _ text: UnsafePointer<UInt8>, count: Int, firstLineHead: [UInt8], cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    lineHead = firstLineHead
    var lineStart = 0
    var position = 0
    while position < count {
      guard let raw = memchr(text + position, 0x0A, count - position) else { return }
      let lineFeed = UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - text
      let leftEnd = lineFeed > lineStart && text[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
      let next = lineFeed + 1
      if leftEnd > lineStart, next < count {
        join(
          text, count: count, line: lineStart..<leftEnd, continuation: next, cache: &cache, into: &candidates)
      }
      lineHead.removeAll(keepingCapacity: true)
      lineStart = next
      position = next
    }
  }

  /// Searches the junction of `line` with the line starting at `continuation`, at every place
  /// the continued text may start there.
  private func join(
    _ text: UnsafePointer<UInt8>, count: Int, line: Range<Int>, continuation: Int,
    cache: inout CanaryTargetsCache, into candidates: inout [MatchCandidate]
  ) {
    // The layout lies within its bounds; the rest of the line is read only for a junction the
    // filter lets through.
    let layoutEnd = min(count, continuation + Self.maxLayoutBytes)
    guard continuation < count, !Self.isBreak(text[continuation]) else { return }
    let layout: (prefixEnd: Int, indented: Int)
    if lineHead.isEmpty {
      layout = Self.continuationLayout(
        text, lineHead: UnsafeBufferPointer(start: text + line.lowerBound, count: line.count),
        continuation: continuation..<layoutEnd)
    } else {
      layout = lineHead.withUnsafeBufferPointer {
        Self.continuationLayout(text, lineHead: $0, continuation: continuation..<layoutEnd)
      }
    }
    let left = max(line.lowerBound, line.upperBound - reach)..<line.upperBound
    // The continued text starts after the layout, one byte earlier when it starts with a blank
    // itself, or at the line's start when only blanks were skipped.
    let indented = layout.indented
    join(text, count: count, left: left, start: indented, cache: &cache, into: &candidates)
    if indented > continuation {
      join(text, count: count, left: left, start: indented - 1, cache: &cache, into: &candidates)
    }
    if layout.prefixEnd == continuation, indented - 1 > continuation {
      join(text, count: count, left: left, start: continuation, cache: &cache, into: &candidates)
    }
  }

  /// Searches `left` joined with the text at `start`, up to its line's end, when the filter
  /// lets the bytes across the seam through.
  @inline(__always)
  private func join(
    _ text: UnsafePointer<UInt8>, count: Int, left: Range<Int>, start: Int, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    var end = start
    let probed = min(count, start + 7)
    while end < probed, !Self.isBreak(text[end]) { end += 1 }
    guard end > start, !left.isEmpty,
      filter.mayJoin(text + left.upperBound, leftCount: left.count, text + start, rightCount: end - start)
    else { return }
    let limit = min(count, start + reach)
    while end < limit, !Self.isBreak(text[end]) { end += 1 }
    search(text, left: left, right: start..<end, cache: &cache, into: &candidates)
  }

  @inline(__always)
  private static func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

  /// The layout a wrapping logger put at the start of a continuation line: the end of the prefix
  /// it repeats from the line it continues (whose first bytes are `lineHead`), ending in a blank,
  /// at most ``maxRepeatedPrefix`` bytes, and the end of the blanks after it, at most
  /// ``maxIndentation``.
  static func continuationLayout(
    _ text: UnsafePointer<UInt8>, lineHead: UnsafeBufferPointer<UInt8>, continuation: Range<Int>
  ) -> (prefixEnd: Int, indented: Int) {
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    let start = continuation.lowerBound
    var common = 0
    let limit = min(maxRepeatedPrefix, lineHead.count, continuation.count)
    while common < limit, lineHead[common] == text[start + common] { common += 1 }
    while common > 0, !isBlank(text[start + common - 1]) { common -= 1 }
    let prefixEnd = start + common
    var indented = prefixEnd
    while indented < continuation.upperBound, indented - prefixEnd < maxIndentation, isBlank(text[indented]) {
      indented += 1
    }
    return (prefixEnd, indented)
  }

  /// Joins `left` and `right` of `text`, searches them, and keeps the matches crossing the seam.
  private func search(
    _ text: UnsafePointer<UInt8>, left: Range<Int>, right: Range<Int>, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    junctionsSearched += 1
    scratch.update(from: text + left.lowerBound, count: left.count)
    (scratch + left.count).update(from: text + right.lowerBound, count: right.count)
    let joined = left.count + right.count
    (scratch + joined).update(repeating: 0, count: 8)
    found.removeAll(keepingCapacity: true)
    matcher.findCandidates(in: scratch, count: joined, cache: &cache, into: &found)
    let seam = left.count
    for var match in found where match.start < seam && match.end > seam {
      match.start += left.lowerBound
      match.end = right.lowerBound + match.end - seam
      candidates.append(match)
    }
  }
}

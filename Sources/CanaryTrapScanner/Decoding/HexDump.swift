#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A hex dump, as `xxd`, `hexdump -C`, `od -A x -t x1z`, SwiftNIO's `hexDump(format: .detailed)`,
/// `tcpdump -X` and Wireshark print one: lines of an offset, the bytes in hex groups, and often
/// the same bytes as text. A dump is one rendering (`hex-dump`): its lines' bytes are joined in
/// order, so a value cut at a line's end is read whole.
///
/// Lines join while each one's offset (hex, octal or decimal, the same in every line) is the one
/// before plus the bytes that line showed, so text that only looks like a dump joins nothing, and
/// the text column is never read as bytes. A dump of one line is left to ``HexGroupDecoder``; the
/// lines after a `*` (`hexdump`'s and `od`'s mark of repeated lines) are a dump of their own.
/// Groups of two, four or eight bytes are also read reversed, as `hexdump` and `od -x` print
/// little-endian words.
struct HexDump {
  /// The dump's lines' bytes, each mapped to its hex digits in the text.
  var bytes: [UInt8] = []
  var starts: [Int32] = []
  var ends: [Int32] = []
  /// Bytes per group, from the first line.
  var groupBytes = 1
  /// Where the last line read ends: at its line break, or at the text's end.
  var end = 0

  /// What reading a dump from a run found.
  enum Outcome {
    /// The run's line is not the first line of a dump of two lines or more.
    case none
    /// The dump.
    case read(HexDump)
    /// The dump may go on past the text looked at: it is read once the rest is there.
    case unfinished
    /// The dump goes on for more than the longest run decoded.
    case tooLong
  }

  /// The most bytes one line may show.
  static let maxLineBytes = 256
  /// The most blanks between two groups of a line (`hexdump -C` puts two in its middle); one
  /// more may stand between the offset and the first group (Wireshark puts three).
  static let maxGap = 3

  /// The dump whose first line holds `run` (a numeric run of `text`), its lines read in
  /// `text[..<limit]` (`final` when the text ends there) up to `maxRun` bytes of text.
  static func read(_ text: UnsafePointer<UInt8>, run: Range<Int>, limit: Int, final: Bool, maxRun: Int)
    -> Outcome
  {
    var lineStart = run.lowerBound
    while lineStart > 0 && text[lineStart - 1] != 0x0A { lineStart -= 1 }
    guard let firstEnd = lineEnd(text, from: run.upperBound, limit: limit, final: final) else {
      return .unfinished
    }
    guard let secondStart = nextLine(text, after: firstEnd, limit: limit) else {
      return final ? .none : .unfinished
    }
    guard let secondEnd = lineEnd(text, from: secondStart, limit: limit, final: final) else {
      return .unfinished
    }
    // The first line's offset is any token followed by hex groups; the second line fixes which,
    // and the radix, by showing the offset that many bytes later: all its bytes first, fewer
    // (a text column that looked like groups) only when no radix gives that.
    let candidates = lines(text, lineStart..<firstEnd).filter { $0.groups.count >= 2 }
    for exact in [true, false] {
      for first in candidates {
        let shown = UInt64(first.byteCount(upTo: maxLineBytes))
        for radix in [16, 8, 10] {
          guard let value = offset(text, first.offset, radix: radix),
            let second = line(
              text, secondStart..<secondEnd, radix: radix,
              where: { $0 > value && (exact ? $0 - value == shown : $0 - value < shown) })
          else { continue }
          return read(
            text, first: first, width: Int(second.value - value), second: second, radix: radix, limit: limit,
            final: final, maxRun: maxRun, blockStart: lineStart)
        }
      }
    }
    return .none
  }

  /// Reads the dump on from its first two lines, `width` bytes to a line.
  private static func read(
    _ text: UnsafePointer<UInt8>, first: Line, width: Int, second: (line: Line, value: UInt64), radix: Int,
    limit: Int, final: Bool, maxRun: Int, blockStart: Int
  ) -> Outcome {
    var dump = HexDump()
    dump.groupBytes = first.groups[0].count / 2
    dump.append(text, first, count: width)
    var current = second.line
    var expected = second.value
    while true {
      guard current.end - blockStart <= maxRun else { return .tooLong }
      // An offset alone ends the dump (`hexdump -C`, `od` and NIO print the length last).
      guard !current.groups.isEmpty else {
        dump.end = current.end
        break
      }
      let count = current.byteCount(upTo: width)
      dump.append(text, current, count: count)
      dump.end = current.end
      expected = expected &+ UInt64(count)
      // A line narrower than the first is the last.
      if count < width { break }
      guard let start = nextLine(text, after: current.end, limit: limit) else {
        if final { break }
        return .unfinished
      }
      guard let end = lineEnd(text, from: start, limit: limit, final: final) else { return .unfinished }
      let after = expected
      guard let next = line(text, start..<end, radix: radix, where: { $0 == after }) else { break }
      current = next.line
    }
    return .read(dump)
  }

  /// The pieces the dump reads: its bytes as shown and, for groups of several bytes, each
  /// group reversed.
  func pieces() -> [DecodedPiece] {
    let span = Int(starts[0])..<Int(ends[ends.count - 1])
    var shown = DecodedPiece(bytes: bytes, span: span, step: .hexDump)
    shown.starts = starts
    shown.ends = ends
    guard groupBytes > 1 else { return [shown] }
    var reversed = shown
    var index = 0
    while index + groupBytes <= bytes.count {
      reversed.bytes[index..<(index + groupBytes)].reverse()
      reversed.starts[index..<(index + groupBytes)].reverse()
      reversed.ends[index..<(index + groupBytes)].reverse()
      index += groupBytes
    }
    return [shown, reversed]
  }

  private mutating func append(_ text: UnsafePointer<UInt8>, _ line: Line, count: Int) {
    var left = count
    for group in line.groups where left > 0 {
      var index = group.lowerBound
      while index + 1 < group.upperBound && left > 0 {
        bytes.append(HexDigit.value(text[index]) << 4 | HexDigit.value(text[index + 1]))
        starts.append(Int32(index))
        ends.append(Int32(index + 2))
        index += 2
        left -= 1
      }
    }
  }

  /// One line of a dump: its offset's digits, and the hex groups after it up to the text column.
  struct Line {
    var offset: Range<Int>
    var groups: [Range<Int>]
    /// Where the line ends: at its line break, or at the text's end.
    var end: Int

    /// How many bytes the groups show, at most `limit`.
    func byteCount(upTo limit: Int) -> Int {
      min(limit, groups.reduce(0) { $0 + $1.count / 2 })
    }
  }

  /// The dump lines `text[range]` may be: one for each token that an offset could be, followed
  /// by at least one hex group, in order.
  private static func lines(_ text: UnsafePointer<UInt8>, _ range: Range<Int>) -> [Line] {
    var found: [Line] = []
    var index = range.lowerBound
    while index < range.upperBound {
      while index < range.upperBound && isBlank(text[index]) { index += 1 }
      let token = index
      while index < range.upperBound && !isBlank(text[index]) { index += 1 }
      if let digits = offsetDigits(text, token..<index) {
        let groups = self.groups(text, after: index, end: range.upperBound)
        if !groups.isEmpty { found.append(Line(offset: digits, groups: groups, end: range.upperBound)) }
      }
    }
    return found
  }

  /// The line in `text[range]` whose offset, read in `radix`, satisfies `accepts`: a line of
  /// groups, or an offset alone ending the dump.
  private static func line(
    _ text: UnsafePointer<UInt8>, _ range: Range<Int>, radix: Int, where accepts: (UInt64) -> Bool
  ) -> (line: Line, value: UInt64)? {
    var index = range.lowerBound
    while index < range.upperBound {
      while index < range.upperBound && isBlank(text[index]) { index += 1 }
      let token = index
      while index < range.upperBound && !isBlank(text[index]) { index += 1 }
      guard let digits = offsetDigits(text, token..<index), let value = offset(text, digits, radix: radix),
        accepts(value)
      else { continue }
      let groups = self.groups(text, after: index, end: range.upperBound)
      var rest = index
      while rest < range.upperBound && isBlank(text[rest]) { rest += 1 }
      // An offset alone must end its line; one with groups may have a text column after them.
      guard !groups.isEmpty || rest == range.upperBound else { continue }
      return (Line(offset: digits, groups: groups, end: range.upperBound), value)
    }
    return nil
  }

  /// The hex groups after the offset ending at `start`: tokens of an even number of hex digits
  /// (2 to 16), all as wide as the first but for a narrower last one, at most ``maxGap`` blanks
  /// apart, up to ``maxLineBytes`` bytes.
  private static func groups(_ text: UnsafePointer<UInt8>, after start: Int, end: Int) -> [Range<Int>] {
    var groups: [Range<Int>] = []
    var index = start
    var bytes = 0
    while index < end && bytes < maxLineBytes {
      let gapStart = index
      while index < end && isBlank(text[index]) { index += 1 }
      let gap = index - gapStart
      guard gap >= 1 && gap <= maxGap + (groups.isEmpty ? 1 : 0) else { break }
      let token = index
      index = HexDigit.runEnd(in: text, from: index, to: end)
      let width = index - token
      guard width >= 2, width <= 16, width % 2 == 0, index == end || isBlank(text[index]),
        groups.first.map({ $0.count >= width }) ?? true
      else { break }
      groups.append(token..<index)
      bytes += width / 2
      // A narrower group ends the line's groups: `xxd` prints an odd last byte alone (`9fff 05`).
      if let first = groups.first, width < first.count { break }
    }
    return groups
  }

  /// The digits of an offset token: 4 to 16 hex digits, after `0x` and before `:` if present.
  private static func offsetDigits(_ text: UnsafePointer<UInt8>, _ token: Range<Int>) -> Range<Int>? {
    var digits = token
    if digits.count > 2 && text[digits.lowerBound] == UInt8(ascii: "0")
      && text[digits.lowerBound + 1] | 0x20 == 0x78
    {
      digits = (digits.lowerBound + 2)..<digits.upperBound
    }
    if !digits.isEmpty && text[digits.upperBound - 1] == UInt8(ascii: ":") {
      digits = digits.lowerBound..<(digits.upperBound - 1)
    }
    guard digits.count >= 4 && digits.count <= 16,
      digits.allSatisfy({ HexDigit.value(text[$0]) != 0xFF })
    else { return nil }
    return digits
  }

  /// The value of an offset's digits in `radix`, or `nil` when a digit is not one of its.
  private static func offset(_ text: UnsafePointer<UInt8>, _ digits: Range<Int>, radix: Int) -> UInt64? {
    var value: UInt64 = 0
    for index in digits {
      let digit = Int(HexDigit.value(text[index]))
      guard digit < radix else { return nil }
      value = value &* UInt64(radix) &+ UInt64(digit)
    }
    return value
  }

  /// The end of the line going on at `index`: its line break (`\r\n` or `\n`), or `limit` when
  /// the text ends there (`final`); `nil` when it may go on past `limit`.
  private static func lineEnd(_ text: UnsafePointer<UInt8>, from index: Int, limit: Int, final: Bool) -> Int?
  {
    guard var end = EncodedRun.first(0x0A, in: text, index..<limit) else {
      return final ? max(index, limit) : nil
    }
    if end > index && text[end - 1] == 0x0D { end -= 1 }
    return end
  }

  /// The start of the line after the one ending at `end` (as ``lineEnd(_:from:limit:final:)``
  /// gives it), or `nil` when the text ends first.
  private static func nextLine(_ text: UnsafePointer<UInt8>, after end: Int, limit: Int) -> Int? {
    var next = end
    if next < limit && text[next] == 0x0D { next += 1 }
    guard next + 1 < limit, text[next] == 0x0A else { return nil }
    return next + 1
  }

  @inline(__always)
  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}

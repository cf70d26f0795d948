/// A byte list printed one number per line: `dump(_:)` of a `[UInt8]` (`  - 123`, and Apple's
/// `dump` of `Data`), a `[UInt8]` property in `JSONEncoder`'s `.prettyPrinted` output
/// (`    123,`), Python's `pprint` of a long list (`[123,` then ` 34,`). Each line ends with its
/// number, decimal up to 255 or `0x` and two hex digits, standing after a blank, a tab or `[` (or
/// at the line's start) and followed by at most a `,` or `]`; what stands before it on the line
/// (indentation, `- `, a logger's prefix) is layout. No run holds such a list, so the lines are
/// read apart from the runs: one `memchr` per line, and a look at the line's last bytes.
struct ByteListColumn {
  /// Each number's text, in order.
  var numbers: [Range<Int>] = []
  /// Where each number's line starts (where the text looked at starts, for the first).
  var lineStarts: [Int] = []
  /// The rendering of every number: `byte-list` or `hex-byte-list`.
  var step: ScanEncoding = .byteList
  /// Where the line after the column's last starts.
  var next = 0
  /// Whether the list goes on after ``next``: it reached the most numbers one piece holds.
  var continues = false

  /// What ``next(in:from:end:limit:final:maxNumbers:continuing:)`` found.
  enum Found {
    /// A column of at least ``ByteListDecoder/minimumCount`` lines.
    case column(ByteListColumn)
    /// A column going on at the end of the text looked at, whose first line starts at `start`.
    case unfinished(start: Int)
  }

  /// The first column of `text[from..<limit]` whose first line starts before `end` (anywhere,
  /// when `continuing` a list read in pieces): `limit` ends the text, which ends there for good
  /// when `final`. A column touching `limit` otherwise is ``Found/unfinished(start:)``; one of
  /// `maxNumbers` numbers is returned as it is, and ``continues``.
  static func next(
    in text: UnsafePointer<UInt8>, from: Int, end: Int, limit: Int, final: Bool, maxNumbers: Int,
    continuing: Bool = false
  ) -> Found? {
    let end = continuing ? limit : end
    var column = ByteListColumn()
    var lineStart = from
    while lineStart < limit {
      if column.numbers.isEmpty && lineStart >= end { return nil }
      guard let lineEnd = EncodedRun.first(0x0A, in: text, lineStart..<limit) ?? (final ? limit : nil) else {
        return column.numbers.isEmpty ? nil : .unfinished(start: column.lineStarts[0])
      }
      let ending = number(endingLine: lineStart..<lineEnd, in: text)
      // A line ending with a number just before a column (`done in 12`) starts none: the first
      // two numbers stand at the same column, as a list's lines do.
      if let (number, step) = ending, !column.numbers.isEmpty, step == column.step,
        column.numbers.count > 1
          || number.lowerBound - lineStart == column.numbers[0].lowerBound - column.lineStarts[0]
      {
        column.numbers.append(number)
        column.lineStarts.append(lineStart)
        if column.numbers.count >= maxNumbers {
          column.next = lineEnd + 1
          column.continues = true
          return .column(column)
        }
      } else {
        if column.numbers.count >= ByteListDecoder.minimumCount {
          column.next = lineStart
          return .column(column)
        }
        column.numbers.removeAll(keepingCapacity: true)
        column.lineStarts.removeAll(keepingCapacity: true)
        // The line may start a column of its own.
        if let (number, step) = ending, lineStart < end {
          column.step = step
          column.numbers.append(number)
          column.lineStarts.append(lineStart)
        }
      }
      lineStart = lineEnd + 1
    }
    // The text stops after a whole line: unless it ends there, the list may go on after it.
    if !final && !column.numbers.isEmpty { return .unfinished(start: column.lineStarts[0]) }
    guard column.numbers.count >= ByteListDecoder.minimumCount else { return nil }
    column.next = limit
    return .column(column)
  }

  /// Where the first line at or after `from` that goes on no column starts: `from` itself unless
  /// the line before it ends with a number at the same column as the line at `from`, when the
  /// lines from `from` that end with one are the rest of a column the text before (another part
  /// of the buffer, read at once by another worker) reads whole.
  static func pastContinuation(in text: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
    guard from > 0, text[from - 1] == 0x0A else { return from }
    let lineEnd = from - 1
    let lower = max(0, lineEnd - LineJunctionSearch.maxLayoutBytes)
    let lineStart = EncodedRun.last(0x0A, in: text, lower..<lineEnd).map { $0 + 1 } ?? lower
    guard let (before, step) = number(endingLine: lineStart..<lineEnd, in: text),
      let firstEnd = EncodedRun.first(0x0A, in: text, from..<limit),
      let (first, _) = number(endingLine: from..<firstEnd, in: text),
      // A number at another column starts a list of its own, which the part before leaves.
      first.lowerBound - from == before.lowerBound - lineStart
    else { return from }
    var start = from
    while let end = EncodedRun.first(0x0A, in: text, start..<limit) {
      guard let (_, lineStep) = number(endingLine: start..<end, in: text), lineStep == step else { break }
      start = end + 1
    }
    return start
  }

  /// The number ending the line `line` of `text` (its line feed excluded), with its rendering.
  static func number(endingLine line: Range<Int>, in text: UnsafePointer<UInt8>) -> (
    Range<Int>, ScanEncoding
  )? {
    var end = line.upperBound
    if end > line.lowerBound && text[end - 1] == 0x0D { end -= 1 }
    if end > line.lowerBound && (text[end - 1] == UInt8(ascii: ",") || text[end - 1] == UInt8(ascii: "]")) {
      end -= 1
    }
    // Up to two hex digits (of `0x7B`), or three decimal ones.
    var start = end
    while start > line.lowerBound && end - start < 3 && HexDigit.value(text[start - 1]) != 0xFF { start -= 1 }
    if start - 2 >= line.lowerBound && end - start <= 2 && text[start - 1] | 0x20 == UInt8(ascii: "x")
      && text[start - 2] == UInt8(ascii: "0")
    {
      start -= 2
    } else {
      while start < end && !(text[start] >= 0x30 && text[start] <= 0x39) { start += 1 }
    }
    guard start < end, start == line.lowerBound || isSeparator(text[start - 1]),
      let (_, step) = ByteListDecoder.number(text, start..<end)
    else { return nil }
    return (start..<end, step)
  }

  /// Whether `byte` may stand before a column's number: a blank, a tab or `[`.
  private static func isSeparator(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "[")
  }

  /// The column's bytes, each placed on its number.
  func piece(_ text: UnsafePointer<UInt8>) -> DecodedPiece {
    var piece = DecodedPiece(bytes: [], span: numbers[0].lowerBound..<numbers.last!.upperBound, step: step)
    piece.bytes.reserveCapacity(numbers.count)
    piece.starts.reserveCapacity(numbers.count)
    piece.ends.reserveCapacity(numbers.count)
    for number in numbers {
      piece.bytes.append(ByteListDecoder.number(text, number)!.0)
      piece.starts.append(Int32(number.lowerBound))
      piece.ends.append(Int32(number.upperBound))
    }
    return piece
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stretch of text that may hold encoded bytes: found by ``EncodedRun/next(in:from:lower:end:)``
/// or ``EncodedRun/nextPercent(in:from:lower:end:)`` and handed to each ``RunDecoder`` of its class.
struct EncodedRun {
  /// The characters a run is made of.
  enum Kind {
    /// Letters, digits and `+/=_-`: base64, base64url, plain hex (and `\` of a JSON-escaped `\/`,
    /// `%` of percent-encoded base64).
    case base64
    /// Hex digits, `x`, spaces and commas: hex groups (`7b227072 6f66696c`), byte lists
    /// (`123, 34`, `0x7B, 0x22`).
    case numeric
    /// The characters of a URL around at least one `%XX` escape: a percent-encoded query string,
    /// path or form body (``nextPercent(in:from:lower:end:)``).
    case percent
  }

  /// The run's bytes in the text searched.
  var range: Range<Int>
  var kind: Kind
  /// Whether the run is hex digits alone (an id, a digest): no decoder reads more in it than
  /// Foundation's description of four bytes or fewer, `<7b227072>`.
  var isHex = false

  /// Bit 0: the byte can be part of a base64 run; bit 1: of a numeric run; bit 2: it is a hex
  /// digit.
  static let classes: [UInt8] = (0..<256).map { value in
    let byte = UInt8(value)
    let folded = byte | 0x20
    let isDigit = byte >= 0x30 && byte <= 0x39
    let isLetter = folded >= 0x61 && folded <= 0x7A
    var bits: UInt8 = 0
    if isDigit || isLetter || "+/=_-\\%".utf8.contains(byte) { bits |= 1 }
    if isDigit || (folded >= 0x61 && folded <= 0x66) || folded == 0x78 || byte == 0x20 || byte == 0x2C {
      bits |= 2
    }
    if isDigit || (folded >= 0x61 && folded <= 0x66) { bits |= 4 }
    return bits
  }

  /// A run is at least this many bytes of one class in a row: every such run is found.
  static let blockLength = 16

  /// The first run in `text[lower..<end]` holding a whole block at or after `from`; it reaches
  /// back to `lower` at most, and forward to `end`. A window of one block is tested from its last
  /// byte backwards, the classes of its bytes intersected: at the first byte that leaves no class
  /// in common, no block can start at or before it, so the search moves past it (in text with
  /// short words, about one block at a time for a few lookups).
  static func next(in text: UnsafePointer<UInt8>, from: Int, lower: Int, end: Int) -> EncodedRun? {
    classes.withUnsafeBufferPointer { classes in
      var index = from
      while index + blockLength <= end {
        var mask: UInt8 = 7
        var probe = index + blockLength - 1
        while probe >= index {
          mask &= classes[Int(text[probe])]
          if mask & 3 == 0 { break }
          probe -= 1
        }
        if mask & 3 == 0 {
          index = probe + 1
          continue
        }
        // One class holds for a whole block: expand it; prefer the longer reading.
        let numericRun =
          mask & 2 != 0 ? expand(text, block: index, bit: 2, lower: lower, end: end, classes) : nil
        let base64Run =
          mask & 1 != 0 ? expand(text, block: index, bit: 1, lower: lower, end: end, classes) : nil
        let numericIsLonger =
          numericRun != nil && (base64Run == nil || base64Run!.range.count <= numericRun!.range.count)
        let (expanded, kind) = numericIsLonger ? (numericRun!, Kind.numeric) : (base64Run!, Kind.base64)
        var run = EncodedRun(range: expanded.range, kind: kind)
        run.isHex = mask & 4 != 0 && expanded.isHex
        return run
      }
      return nil
    }
  }

  /// Whether a byte may stand in a URL as logs print it: printable ASCII but for the blank and
  /// the characters that end one in text (quotes, angle and square brackets, braces, `\`, `|`,
  /// `^`, `` ` ``).
  static let urlBytes: [Bool] = (0..<256).map { value in
    value > 0x20 && value < 0x7F && !"\"'<>\\`{}|^[]".utf8.contains(UInt8(value))
  }

  /// The first percent run in `text[lower..<end]` whose first escape is at or after `from`: the
  /// URL bytes around a `%` and two hex digits, reaching back to `lower` at most and forward to
  /// `end`. Escapes are found with `memchr`, so text without `%` costs one pass over it.
  static func nextPercent(in text: UnsafePointer<UInt8>, from: Int, lower: Int, end: Int) -> EncodedRun? {
    var index = from
    while index + 3 <= end, let found = memchr(text + index, 0x25, end - index) {
      let escape = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - text
      guard escape + 3 <= end else { return nil }
      guard HexDigit.percentEscape(in: text, at: escape, end: end) != nil else {
        index = escape + 1
        continue
      }
      return urlBytes.withUnsafeBufferPointer { urlBytes in
        var low = escape
        while low > lower && urlBytes[Int(text[low - 1])] { low -= 1 }
        var high = escape + 3
        while high < end && urlBytes[Int(text[high])] { high += 1 }
        return EncodedRun(range: low..<high, kind: .percent)
      }
    }
    return nil
  }

  /// The run of `bit`'s class around the block at `block`, and whether the bytes it added to
  /// the block are hex digits alone.
  private static func expand(
    _ text: UnsafePointer<UInt8>, block: Int, bit: UInt8, lower: Int, end: Int,
    _ classes: UnsafeBufferPointer<UInt8>
  ) -> (range: Range<Int>, isHex: Bool) {
    var hex: UInt8 = 4
    var low = block
    while low > lower && classes[Int(text[low - 1])] & bit != 0 {
      hex &= classes[Int(text[low - 1])]
      low -= 1
    }
    var high = block + blockLength
    while high < end && classes[Int(text[high])] & bit != 0 {
      hex &= classes[Int(text[high])]
      high += 1
    }
    return (low..<high, hex != 0)
  }
}

/// The runs of a stretch of text in order: the class runs of ``EncodedRun/next(in:from:lower:end:)``
/// and, when `findsPercent`, the percent runs, merged. A run found inside an earlier one is read
/// when that one is decoded; the next percent run is remembered, so `%` is looked for once.
///
/// When the text goes on past `end` (not `final`), the URL bytes touching `end` shorter than
/// `maxRun` are a percent run too, even before an escape: its first escape may be in the next
/// buffer, so the caller keeps it whole for then, as it keeps any run still going at `end`. A
/// longer stretch without an escape is left to the class runs in it (base64 too long to decode
/// must still be seen as such).
struct EncodedRunWalk {
  let text: UnsafePointer<UInt8>
  let end: Int
  let findsPercent: Bool
  let final: Bool
  let maxRun: Int
  /// The next percent run, as last found.
  private var percent: EncodedRun?
  /// Whether the text holds no percent run past the last one found.
  private var percentDone = false

  init(_ text: UnsafePointer<UInt8>, end: Int, findsPercent: Bool, final: Bool = true, maxRun: Int = .max) {
    self.text = text
    self.end = end
    self.findsPercent = findsPercent
    self.final = final
    self.maxRun = maxRun
  }

  /// The first run starting at or after `position` (a percent run may reach back before its
  /// escape, to `position` at most).
  mutating func next(from position: Int) -> EncodedRun? {
    let classRun = EncodedRun.next(in: text, from: position, lower: position, end: end)
    guard findsPercent, !percentDone else { return classRun }
    if percent == nil || percent!.range.lowerBound < position {
      percent =
        EncodedRun.nextPercent(in: text, from: position, lower: position, end: end) ?? tail(from: position)
      if percent == nil { percentDone = true }
    }
    guard let percent else { return classRun }
    guard let classRun, classRun.range.lowerBound < percent.range.lowerBound else { return percent }
    return classRun
  }

  /// The URL bytes touching `end` after `position`, when the text goes on past `end` and they
  /// are shorter than `maxRun`.
  private func tail(from position: Int) -> EncodedRun? {
    guard !final else { return nil }
    var start = end
    while start > max(position, end - maxRun) && EncodedRun.urlBytes[Int(text[start - 1])] { start -= 1 }
    guard start < end, end - start < maxRun, start == position || !EncodedRun.urlBytes[Int(text[start - 1])]
    else { return nil }
    return EncodedRun(range: start..<end, kind: .percent)
  }
}

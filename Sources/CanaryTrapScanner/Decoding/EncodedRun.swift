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
    /// Printable text around at least one `\xHH` escape: bytes as Python, Go, Rust, Ruby or nginx
    /// print them (``nextEscaped(in:from:lower:end:)``).
    case escaped
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
        let expanded = expand(text, block: index, classes: mask & 3, lower: lower, end: end, classes)
        let numericIsLonger =
          mask & 2 != 0 && (mask & 1 == 0 || expanded.base64.count <= expanded.numeric.count)
        let range = numericIsLonger ? expanded.numeric : expanded.base64
        var run = EncodedRun(range: range, kind: numericIsLonger ? .numeric : .base64)
        run.isHex =
          mask & 4 != 0 && expanded.hex.lowerBound <= range.lowerBound
          && range.upperBound <= expanded.hex.upperBound
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
    while index + 3 <= end, let escape = first(0x25, in: text, index..<end) {
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

  /// The run of each class of `wanted` (bit 0 base64, bit 1 numeric, as in ``classes``) around
  /// the block at `block`, and the hex digits around it, read in one walk each way; a class not
  /// wanted gets the block alone.
  private static func expand(
    _ text: UnsafePointer<UInt8>, block: Int, classes wanted: UInt8, lower: Int, end: Int,
    _ classes: UnsafeBufferPointer<UInt8>
  ) -> (base64: Range<Int>, numeric: Range<Int>, hex: Range<Int>) {
    // Bit 0 and 1: the classes still going; bit 2: hex digits still going. Eight bytes at a time
    // where they keep every class going (hex digits while all go, base64 characters while only
    // base64 does: bit 2 then means nothing, the block is no hex), else one.
    var going = wanted | 4
    var index = block
    var low = (base64: index, numeric: index, hex: index)
    // A class's run ends where the class drops; one still going ends where the walk stops.
    while index > lower && going != 0 {
      if index - 8 >= lower {
        let kept = (~keptBytes(going, word(at: index - 8, in: text)) & everyByte).leadingZeroBitCount / 8
        index -= kept
        if kept == 8 { continue }
      }
      let dropped = going & ~classes[Int(text[index - 1])]
      if dropped & 1 != 0 { low.base64 = index }
      if dropped & 2 != 0 { low.numeric = index }
      if dropped & 4 != 0 { low.hex = index }
      going &= ~dropped
      index -= 1
    }
    if going & 1 != 0 { low.base64 = index }
    if going & 2 != 0 { low.numeric = index }
    if going & 4 != 0 { low.hex = index }
    going = wanted | 4
    index = block + blockLength
    var high = (base64: index, numeric: index, hex: index)
    while index < end && going != 0 {
      if index + 8 <= end {
        let kept = (~keptBytes(going, word(at: index, in: text)) & everyByte).trailingZeroBitCount / 8
        index += kept
        if kept == 8 { continue }
      }
      let dropped = going & ~classes[Int(text[index])]
      if dropped & 1 != 0 { high.base64 = index }
      if dropped & 2 != 0 { high.numeric = index }
      if dropped & 4 != 0 { high.hex = index }
      going &= ~dropped
      index += 1
    }
    if going & 1 != 0 { high.base64 = index }
    if going & 2 != 0 { high.numeric = index }
    if going & 4 != 0 { high.hex = index }
    return (low.base64..<high.base64, low.numeric..<high.numeric, low.hex..<high.hex)
  }
}

extension EncodedRun {
  /// The 8 bytes at `index` of `text`, the first in the lowest bits.
  @inline(__always)
  static func word(at index: Int, in text: UnsafePointer<UInt8>) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(text + index).loadUnaligned(as: UInt64.self))
  }

  /// Bit 7 of every byte.
  static let everyByte = 0x8080_8080_8080_8080 as UInt64

  /// Bit 7 of each byte of `word` that keeps every class of `going` (as ``expand`` tracks them)
  /// going, for the two common cases only (none in the others): all three going and a hex digit,
  /// or base64 alone and a letter, a digit, `+` or `/`.
  @inline(__always)
  fileprivate static func keptBytes(_ going: UInt8, _ word: UInt64) -> UInt64 {
    let digits = bytes(of: word, from: 0x30, through: 0x39)
    let folded = word | 0x2020_2020_2020_2020
    if going == 7 { return digits | bytes(of: folded, from: 0x61, through: 0x66) }
    guard going & 3 == 1 else { return 0 }
    let signs = bytes(of: word, from: 0x2B, through: 0x2B) | bytes(of: word, from: 0x2F, through: 0x2F)
    return digits | bytes(of: folded, from: 0x61, through: 0x7A) | signs
  }

  /// Where the first `byte` of `text[range]` is, or `nil` when there is none (`memchr`).
  @inline(__always)
  static func first(_ byte: UInt8, in text: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int? {
    guard !range.isEmpty, let found = memchr(text + range.lowerBound, Int32(byte), range.count) else {
      return nil
    }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - text
  }

  /// Where the last `byte` (below 0x80) of `text[range]` is, or `nil` when there is none: 8
  /// bytes at a time from the end.
  static func last(_ byte: UInt8, in text: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.upperBound
    while index - 8 >= range.lowerBound {
      let found = bytes(of: word(at: index - 8, in: text), from: byte, through: byte)
      if found != 0 { return index - 1 - found.leadingZeroBitCount / 8 }
      index -= 8
    }
    while index > range.lowerBound {
      index -= 1
      if text[index] == byte { return index }
    }
    return nil
  }

  /// Bit 7 of each byte of `word` from `low` through `high` (both below 0x80), no other bit.
  @inline(__always)
  static func bytes(of word: UInt64, from low: UInt8, through high: UInt8) -> UInt64 {
    let ones = 0x0101_0101_0101_0101 as UInt64
    let seven = word & 0x7F7F_7F7F_7F7F_7F7F
    return (seven &+ ones &* UInt64(0x80 - low)) & ~(seven &+ ones &* UInt64(0x7F - high)) & ~word
      & 0x8080_8080_8080_8080
  }
}

/// The runs of a text in order: the class runs (``EncodedRun/next(in:from:lower:end:)``) and,
/// when asked, the percent runs and the escaped runs, merged. A run found inside an earlier one
/// is read when that one is decoded; the next run of each searched kind is remembered, so `%`
/// and `\` are looked for once.
///
/// When the text goes on past `end` (not `final`), the URL bytes (or printable bytes) touching
/// `end` shorter than `maxRun` are a percent (or escaped) run too, even before an escape: its
/// first escape may be in the next buffer, so the caller keeps it whole for then, as it keeps
/// any run still going at `end`. A longer stretch without an escape is left to the class runs
/// in it (base64 too long to decode must still be seen as such).
struct EncodedRunWalk {
  let text: UnsafePointer<UInt8>
  let end: Int
  let final: Bool
  let maxRun: Int
  private var percent: SearchedRuns
  private var escaped: SearchedRuns

  init(
    _ text: UnsafePointer<UInt8>, end: Int, findsPercent: Bool, findsEscaped: Bool = false,
    final: Bool = true,
    maxRun: Int = .max
  ) {
    self.text = text
    self.end = end
    self.final = final
    self.maxRun = maxRun
    percent = SearchedRuns(kind: .percent, isDone: !findsPercent)
    escaped = SearchedRuns(kind: .escaped, isDone: !findsEscaped)
  }

  /// The first run starting at or after `position` (a percent or escaped run may reach back
  /// before its escape, to `position` at most).
  mutating func next(from position: Int) -> EncodedRun? {
    var first = EncodedRun.next(in: text, from: position, lower: position, end: end)
    // A searched run starting where a class run does holds it: it is read first.
    if let run = percent.next(from: position, in: text, end: end, final: final, maxRun: maxRun) {
      if first.map({ run.range.lowerBound <= $0.range.lowerBound }) ?? true { first = run }
    }
    if let run = escaped.next(from: position, in: text, end: end, final: final, maxRun: maxRun) {
      if first.map({ run.range.lowerBound <= $0.range.lowerBound }) ?? true { first = run }
    }
    return first
  }
}

/// The runs of one kind a search of its own finds (percent or escaped runs), the next one kept
/// until the walk passes it.
private struct SearchedRuns {
  let kind: EncodedRun.Kind
  /// Whether the text holds no such run past the last one found.
  var isDone: Bool
  /// The next run, as last found.
  private var run: EncodedRun?

  init(kind: EncodedRun.Kind, isDone: Bool) {
    self.kind = kind
    self.isDone = isDone
  }

  mutating func next(from position: Int, in text: UnsafePointer<UInt8>, end: Int, final: Bool, maxRun: Int)
    -> EncodedRun?
  {
    guard !isDone else { return nil }
    if run == nil || run!.range.lowerBound < position {
      switch kind {
      case .escaped:
        run =
          EncodedRun.nextEscaped(in: text, from: position, lower: position, end: end)
          ?? (final ? nil : EncodedRun.escapedTail(in: text, from: position, end: end, maxRun: maxRun))
      default:
        run =
          EncodedRun.nextPercent(in: text, from: position, lower: position, end: end)
          ?? (final ? nil : Self.percentTail(in: text, from: position, end: end, maxRun: maxRun))
      }
      if run == nil { isDone = true }
    }
    return run
  }

  /// The URL bytes touching `end` after `position`, when they are shorter than `maxRun`.
  private static func percentTail(in text: UnsafePointer<UInt8>, from position: Int, end: Int, maxRun: Int)
    -> EncodedRun?
  {
    var start = end
    while start > max(position, end - maxRun) && EncodedRun.urlBytes[Int(text[start - 1])] { start -= 1 }
    guard start < end, end - start < maxRun, start == position || !EncodedRun.urlBytes[Int(text[start - 1])]
    else { return nil }
    return EncodedRun(range: start..<end, kind: .percent)
  }
}

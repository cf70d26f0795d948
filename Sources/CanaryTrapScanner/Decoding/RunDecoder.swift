/// Reads the bytes a rendering shows out of a run of text: one decoder per rendering (hex groups,
/// byte lists, base64 of a compressed payload, percent-encoded text, backslash escapes).
protocol RunDecoder {
  /// The runs this decoder reads.
  var kind: EncodedRun.Kind { get }
  /// Appends every piece of `text[run]` this decoder reads; `text[0..<count]` may be looked at
  /// around the run (an elision mark, a bracket).
  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: Range<Int>, into pieces: inout [DecodedPiece])
}

/// The decoders a pass uses, held by their concrete types so a run is handed to them without
/// dynamic dispatch (one call per run, on every run of the text).
struct RunDecoders {
  var hexGroups: HexGroupDecoder?
  var byteLists: ByteListDecoder?
  var base64Runs: Base64RunDecoder?
  var percentRuns: PercentRunDecoder?
  var escapedRuns: EscapedBytesDecoder?
  /// Whether a numeric run starting a hex dump's lines is read with them (``HexDump``).
  var hexDumps = false

  /// Whether any decoder reads numeric runs.
  var readsNumericRuns: Bool { hexGroups != nil || byteLists != nil || hexDumps }

  /// Whether any decoder reads any run.
  var readsAnyRun: Bool { readsNumericRuns || base64Runs != nil || percentRuns != nil || escapedRuns != nil }

  /// Appends every piece the decoders of `run`'s kind read.
  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: EncodedRun, into pieces: inout [DecodedPiece]) {
    // Hex digits alone (an id, a digest, most runs of a log) are one ungrouped token: the
    // forward `hex` literals read them, and a decoder only a bracketed one (`<7b227072>`), the
    // shown part of an elided one (`[7b2275…...`) or a compressed payload's (`1f8b0800…`).
    if run.isHex && !HexGroupDecoder.isBracketed(text, at: run.range.lowerBound)
      && !HexGroupDecoder.elisionMark(
        text, count: count, before: run.range.lowerBound, after: run.range.upperBound)
      && !HexGroupDecoder.startsCompressed(text, run.range)
    {
      return
    }
    switch run.kind {
    case .numeric:
      hexGroups?.decode(text, count: count, run: run.range, into: &pieces)
      byteLists?.decode(text, count: count, run: run.range, into: &pieces)
    case .base64:
      base64Runs?.decode(text, count: count, run: run.range, into: &pieces)
    case .percent:
      percentRuns?.decode(text, count: count, run: run.range, into: &pieces)
    case .escaped:
      escapedRuns?.decode(text, count: count, run: run.range, into: &pieces)
    }
  }
}

/// Bytes a ``RunDecoder`` read out of the text, and where each came from.
struct DecodedPiece {
  /// The decoded bytes.
  var bytes: [UInt8]
  /// For each decoded byte, where its text starts and ends (exclusive) in the text decoded;
  /// empty when the piece only maps as a whole (``span``).
  var starts: [Int32] = []
  var ends: [Int32] = []
  /// The text the piece was read from.
  var span: Range<Int>
  /// The rendering, named in findings.
  var step: ScanEncoding
  /// A shown head or tail of an elided rendering (Apple's `… ` in a `Data` description): what
  /// it holds of a value is named a fragment.
  var elided = false
  /// The bytes are a compressed payload (gzip, zlib, raw deflate, bzip2…) to open before searching.
  var compressed = false
  /// The encoding the text was read out of before ``step``, when there was one (`percent`).
  var outer: ScanEncoding?
}

extension DecodedPiece {
  /// Whether the bytes begin as a compressed stream may (``CompressedPayload/mayStart(_:)``).
  var mayBeCompressed: Bool {
    bytes.withUnsafeBufferPointer { CompressedPayload.mayStart(UnsafeBufferPointer(rebasing: $0.prefix(12))) }
  }
}

/// Hex digit values, 0xFF for other bytes.
enum HexDigit {
  /// ``value(_:)`` of every byte, for loops that read it once.
  static let values: [UInt8] = (0..<256).map { value(UInt8($0)) }

  /// The value of the hex digit `character` (either case), 0xFF for another byte: computed, so
  /// that hot tests read no static table (each read of one costs a `swift_once`).
  @inline(__always)
  static func value(_ character: UInt8) -> UInt8 {
    let decimal = character &- 0x30
    if decimal < 10 { return decimal }
    let letter = (character | 0x20) &- 0x61
    return letter < 6 ? letter + 10 : 0xFF
  }

  /// The byte the two hex digits at `index` of `text` stand for, `nil` when either is no digit.
  @inline(__always)
  static func byte(in text: UnsafePointer<UInt8>, at index: Int) -> UInt8? {
    let high = value(text[index])
    let low = value(text[index + 1])
    return high > 15 || low > 15 ? nil : high << 4 | low
  }

  /// Where the hex digits starting at `start` of `text[..<end]` end: eight bytes at a time.
  @inline(__always)
  static func runEnd(in text: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    var index = start
    while index + 8 <= end {
      let others = otherBytes(EncodedRun.word(at: index, in: text))
      if others != 0 { return index + others.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < end && value(text[index]) != 0xFF { index += 1 }
    return index
  }

  /// Bit 7 of each byte of `word` that is no hex digit, no other bit.
  @inline(__always)
  private static func otherBytes(_ word: UInt64) -> UInt64 {
    let digits = EncodedRun.bytes(of: word, from: 0x30, through: 0x39)
    let letters = EncodedRun.bytes(of: word | 0x2020_2020_2020_2020, from: 0x61, through: 0x66)
    return ~(digits | letters) & EncodedRun.everyByte
  }

  /// The byte a `%XX` escape at `index` of `text[..<end]` stands for, hex digits in either case,
  /// or `nil` when no escape stands there. A loop passes ``values`` as `digits`, read once before
  /// it: each read of the static costs a `swift_once`.
  @inline(__always)
  static func percentEscape(in text: UnsafePointer<UInt8>, at index: Int, end: Int, digits: [UInt8] = values)
    -> UInt8?
  {
    guard text[index] == 0x25, index + 3 <= end else { return nil }
    let high = digits[Int(text[index + 1])]
    let low = digits[Int(text[index + 2])]
    return high == 0xFF || low == 0xFF ? nil : high << 4 | low
  }
}

/// The tokens of a numeric run: hex groups or numbers, and what separates each from the one
/// before it.
struct NumericToken {
  enum Separator { case none, space, comma, other }
  var range: Range<Int>
  var before: Separator

  static func tokens(_ text: UnsafePointer<UInt8>, run: Range<Int>) -> [NumericToken] {
    var tokens: [NumericToken] = []
    var index = run.lowerBound
    var separator = NumericToken.Separator.none
    while index < run.upperBound {
      let byte = text[index]
      if byte == 0x20 || byte == 0x2C {
        var spaces = 0
        var commas = 0
        while index < run.upperBound, text[index] == 0x20 || text[index] == 0x2C {
          if text[index] == 0x20 { spaces += 1 } else { commas += 1 }
          index += 1
        }
        if tokens.isEmpty { continue }
        separator =
          commas == 1 && spaces <= 1 ? .comma : commas == 0 && spaces == 1 ? .space : .other
        continue
      }
      let start = index
      while index < run.upperBound, text[index] != 0x20, text[index] != 0x2C { index += 1 }
      tokens.append(NumericToken(range: start..<index, before: tokens.isEmpty ? .none : separator))
    }
    return tokens
  }
}

/// Hex in groups, as Foundation describes `Data` (`nsdata-hex`): swift-corelibs-foundation's
/// `<7b227072 6f66696c>`, Apple's `{length = 59, bytes = 0x7b227072 … 7d7d }` (whose shown head
/// and tail are fragments). One ungrouped run of hex is left to the forward `hex` literals, but
/// for a shown head or tail next to `...`, as SwiftNIO describes a `ByteBuffer` of more than 64
/// bytes (`[7b227573…...…227d7d](89 bytes)`): its fragments are named `fragment → hex`.
struct HexGroupDecoder: RunDecoder {
  var kind: EncodedRun.Kind { .numeric }

  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: Range<Int>, into pieces: inout [DecodedPiece]) {
    let tokens = NumericToken.tokens(text, run: run)
    let digits = HexDigit.values
    var group: [Range<Int>] = []
    var prefixed = false
    func flush() {
      defer {
        group.removeAll()
        prefixed = false
      }
      guard let first = group.first, let last = group.last else { return }
      let bracketed = Self.isBracketed(text, at: first.lowerBound)
      let elided = Self.elisionMark(text, count: count, before: first.lowerBound, after: last.upperBound)
      // One ungrouped run of hex (a trace id, a digest) is left to the forward `hex` literals,
      // unless it is the shown part of an elided one or a compressed payload's hex.
      let ungrouped = group.count == 1 && !prefixed && !bracketed
      if ungrouped && !elided && !Self.startsCompressed(text, first) { return }
      var piece = DecodedPiece(
        bytes: [], span: first.lowerBound..<last.upperBound, step: ungrouped ? .hex : .nsdataHex)
      for token in group {
        var index = token.lowerBound
        while index + 1 < token.upperBound {
          piece.bytes.append(digits[Int(text[index])] << 4 | digits[Int(text[index + 1])])
          piece.starts.append(Int32(index))
          piece.ends.append(Int32(index + 2))
          index += 2
        }
      }
      piece.elided = elided
      if prefixed { piece.span = (first.lowerBound - 2)..<last.upperBound }
      pieces.append(piece)
    }
    for token in tokens {
      var range = token.range
      var hasPrefix = false
      if range.count > 2, text[range.lowerBound] == UInt8(ascii: "0"),
        text[range.lowerBound + 1] | 0x20 == 0x78
      {
        range = (range.lowerBound + 2)..<range.upperBound
        hasPrefix = true
      }
      let isHexGroup =
        range.count >= 2 && range.count % 2 == 0 && range.allSatisfy { digits[Int(text[$0])] != 0xFF }
      if !isHexGroup {
        flush()
        continue
      }
      if !group.isEmpty && (token.before != .space || hasPrefix) { flush() }
      if group.isEmpty { prefixed = hasPrefix }
      group.append(range)
    }
    flush()
  }

  /// The fewest hex digits read as a compressed payload's: the head ``CompressedPayload/mayStart(_:)``
  /// tests, 12 bytes.
  static let payloadHeadDigits = 24

  /// The most hex digits a digest shows (SHA-512's 128): a longer run of plain hex is no digest.
  static let longestDigestDigits = 128

  /// Whether the hex digits of `run` (at least ``payloadHeadDigits``) begin as a compressed
  /// stream does: an ungrouped run that is no id or digest, which the forward `hex` literals
  /// cannot see into. A header is looked for (`1f8b08…` for gzip, `789c…` for zlib, zip's,
  /// bzip2's…); raw deflate, which has none, only in a run longer than any digest: about one id
  /// or digest in a hundred would pass its test and be inflated in vain. (Its `Data` description,
  /// a byte list or a dump is always tried.)
  static func startsCompressed(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Bool {
    startsCompressed(text, run, readingDeflate: run.count > longestDigestDigits)
  }

  /// Whether the hex digits of `run` begin as a compressed stream does; raw deflate only when
  /// `readingDeflate`.
  static func startsCompressed(
    _ text: UnsafePointer<UInt8>, _ run: Range<Int>, readingDeflate mayBeDeflate: Bool
  ) -> Bool {
    guard run.count >= payloadHeadDigits else { return false }
    // The first two bytes turn nearly every id and digest away before the head is read.
    guard let first = HexDigit.byte(in: text, at: run.lowerBound),
      let second = HexDigit.byte(in: text, at: run.lowerBound + 2),
      mayBeDeflate
        ? CompressedPayload.mayStart(first: first, second: second)
        : CompressedPayload.mayStartWithHeader(first: first, second: second)
    else { return false }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: payloadHeadDigits / 2) { head in
      for index in head.indices {
        guard let value = HexDigit.byte(in: text, at: run.lowerBound + 2 * index) else { return false }
        head[index] = value
      }
      let bytes = UnsafeBufferPointer(head)
      return mayBeDeflate ? CompressedPayload.mayStart(bytes) : CompressedPayload.startsWithHeader(bytes)
    }
  }

  /// The hex digits starting `run` read as a compressed payload's bytes, when they begin as one
  /// does (``startsCompressed(_:_:)``): hex after a key or before other text in a base64 run
  /// (`body=1f8b0800…-end`).
  static func payload(_ text: UnsafePointer<UInt8>, startingAt run: Range<Int>) -> DecodedPiece? {
    // The first two bytes turn nearly every run away (a digest, an id, a token) before its
    // digits are counted; then the head decides (a header, or raw deflate past a digest's
    // length), and the digits are counted to the end only for a payload.
    guard run.count >= payloadHeadDigits, let first = HexDigit.byte(in: text, at: run.lowerBound),
      let second = HexDigit.byte(in: text, at: run.lowerBound + 2),
      CompressedPayload.mayStart(first: first, second: second)
    else { return nil }
    let headBound = min(run.upperBound, run.lowerBound + longestDigestDigits + 2)
    var headEnd = HexDigit.runEnd(in: text, from: run.lowerBound, to: headBound)
    headEnd -= (headEnd - run.lowerBound) % 2
    guard startsCompressed(text, run.lowerBound..<headEnd) else { return nil }
    var end = HexDigit.runEnd(in: text, from: headEnd, to: run.upperBound)
    end -= (end - run.lowerBound) % 2
    var piece = DecodedPiece(bytes: [], span: run.lowerBound..<end, step: .hex, compressed: true)
    piece.bytes.reserveCapacity((end - run.lowerBound) / 2)
    for index in stride(from: run.lowerBound, to: end, by: 2) {
      piece.bytes.append(HexDigit.byte(in: text, at: index)!)
    }
    return piece
  }

  /// Whether `<` stands just before `start`, as it opens swift-corelibs-foundation's description.
  static func isBracketed(_ text: UnsafePointer<UInt8>, at start: Int) -> Bool {
    start > 0 && text[start - 1] == UInt8(ascii: "<")
  }

  /// Whether `...` stands next to the group (after blanks): Apple's and SwiftNIO's mark of bytes
  /// left out.
  static func elisionMark(_ text: UnsafePointer<UInt8>, count: Int, before start: Int, after end: Int) -> Bool
  {
    var index = end
    while index < count && text[index] == 0x20 { index += 1 }
    if index + 3 <= count && text[index] == 0x2E && text[index + 1] == 0x2E && text[index + 2] == 0x2E {
      return true
    }
    index = start
    while index > 0 && text[index - 1] == 0x20 { index -= 1 }
    return index >= 3 && text[index - 1] == 0x2E && text[index - 2] == 0x2E && text[index - 3] == 0x2E
  }
}

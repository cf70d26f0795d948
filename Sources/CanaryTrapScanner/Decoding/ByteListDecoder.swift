/// Bytes printed as a list of numbers: decimal (`byte-list`, `[123, 34, 112]` as
/// `print(Array(data))` writes it) or `0x` hex (`hex-byte-list`, `0x7B, 0x22`), separated by
/// commas (hex ones by single spaces too).
struct ByteListDecoder: RunDecoder {
  var kind: EncodedRun.Kind { .numeric }

  /// The fewest numbers read as a list.
  static let minimumCount = 8

  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: Range<Int>, into pieces: inout [DecodedPiece]) {
    let tokens = NumericToken.tokens(text, run: run)
    var current: DecodedPiece?
    func flush() {
      if let piece = current, piece.bytes.count >= Self.minimumCount { pieces.append(piece) }
      current = nil
    }
    for token in tokens {
      guard let (value, step) = Self.number(text, token.range) else {
        flush()
        continue
      }
      if let piece = current {
        let joins =
          piece.step == step && (token.before == .comma || (step == .hexByteList && token.before == .space))
        if !joins { flush() }
      }
      if current == nil { current = DecodedPiece(bytes: [], span: token.range, step: step) }
      current!.bytes.append(value)
      current!.starts.append(Int32(token.range.lowerBound))
      current!.ends.append(Int32(token.range.upperBound))
      current!.span = current!.span.lowerBound..<token.range.upperBound
    }
    flush()
  }

  /// A decimal number up to 255, or `0x` and one or two hex digits.
  static func number(_ text: UnsafePointer<UInt8>, _ range: Range<Int>) -> (UInt8, ScanEncoding)? {
    if range.count >= 3 && range.count <= 4 && text[range.lowerBound] == UInt8(ascii: "0")
      && text[range.lowerBound + 1] | 0x20 == 0x78
    {
      var value = 0
      let digits = HexDigit.values
      for index in (range.lowerBound + 2)..<range.upperBound {
        let digit = digits[Int(text[index])]
        guard digit != 0xFF else { return nil }
        value = value << 4 | Int(digit)
      }
      return (UInt8(value), .hexByteList)
    }
    guard range.count <= 3 else { return nil }
    var value = 0
    for index in range {
      let byte = text[index]
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    guard value <= 255, range.count == 1 || text[range.lowerBound] != 0x30 else { return nil }
    return (UInt8(value), .byteList)
  }
}

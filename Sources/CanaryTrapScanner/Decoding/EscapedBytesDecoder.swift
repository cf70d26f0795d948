/// Bytes printed with backslash escapes (`hex-escaped`): Python's and Rust's `b'\x1f\x8b…'`, Go's
/// `%q`, Ruby's `inspect`, an nginx log's `\x22`. Each `\xHH` is its byte, and `\\`, `\'`, `\"`,
/// `\n`, `\r`, `\t`, `\0`, `\a`, `\b`, `\e`, `\f`, `\v` theirs; any other backslash stands for
/// itself, as Python reads one. The run is read whole, and from the start of the word its first
/// escape stands in (after a key's `=`), where a compressed payload may start (`body=x\x9c…`).
///
/// Each decoded byte maps back to its characters in the text, so a match is placed exactly; a
/// match no escape touched is the text's own, and the step is not named (see ``DecodingWorker``).
struct EscapedBytesDecoder: RunDecoder {
  var kind: EncodedRun.Kind { .escaped }

  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: Range<Int>, into pieces: inout [DecodedPiece]) {
    // The run starts with the literal's opening, `b'` or a quote: its bytes start after it.
    var index = run.lowerBound
    if text[index] == UInt8(ascii: "b"), index + 1 < run.upperBound, Self.isQuote(text[index + 1]) {
      index += 2
    } else if Self.isQuote(text[index]) {
      index += 1
    }
    var piece = DecodedPiece(bytes: [], span: index..<run.upperBound, step: .hexEscaped)
    piece.bytes.reserveCapacity(run.count)
    piece.starts.reserveCapacity(run.count)
    piece.ends.reserveCapacity(run.count)
    var firstEscape: Int?
    while index < run.upperBound {
      piece.starts.append(Int32(index))
      if text[index] == 0x5C, index + 1 < run.upperBound,
        let (byte, length) = Self.escape(text, at: index, end: run.upperBound)
      {
        if firstEscape == nil { firstEscape = piece.bytes.count }
        piece.bytes.append(byte)
        index += length
      } else {
        piece.bytes.append(text[index])
        index += 1
      }
      piece.ends.append(Int32(index))
    }
    pieces.append(piece)
    // A payload after a key (`body=x\x9c…`, `data: \x1f\x8b…`) starts with the word it stands in.
    guard let firstEscape, !piece.mayBeCompressed else { return }
    var start = firstEscape
    while start > 0, !Self.endsAKey(text[Int(piece.starts[start - 1])]) { start -= 1 }
    guard start > 0 else { return }
    var payload = DecodedPiece(
      bytes: Array(piece.bytes[start...]), span: Int(piece.starts[start])..<run.upperBound, step: .hexEscaped)
    guard payload.mayBeCompressed else { return }
    payload.compressed = true
    pieces.append(payload)
  }

  @inline(__always)
  private static func isQuote(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x27 }

  /// Whether a byte ends what stands before a payload: a key's `=` or `:`, a blank, a quote.
  @inline(__always)
  private static func endsAKey(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":") || byte == 0x20 || byte == 0x22 || byte == 0x27
  }

  /// The byte the escape at `index` (a backslash) stands for, and its length; `nil` for a
  /// backslash that stands for itself.
  @inline(__always)
  private static func escape(_ text: UnsafePointer<UInt8>, at index: Int, end: Int) -> (UInt8, Int)? {
    let letter = text[index + 1]
    switch letter {
    case UInt8(ascii: "x"):
      guard index + 4 <= end, let byte = HexDigit.byte(in: text, at: index + 2) else { return nil }
      return (byte, 4)
    case 0x5C, 0x27, 0x22: return (letter, 2)
    case UInt8(ascii: "n"): return (0x0A, 2)
    case UInt8(ascii: "r"): return (0x0D, 2)
    case UInt8(ascii: "t"): return (0x09, 2)
    case UInt8(ascii: "0"):
      // `\0` as Rust and Go print a zero byte; `\012` would be octal, which none of them print.
      guard index + 2 >= end || !(text[index + 2] >= 0x30 && text[index + 2] <= 0x37) else { return nil }
      return (0x00, 2)
    case UInt8(ascii: "a"): return (0x07, 2)
    case UInt8(ascii: "b"): return (0x08, 2)
    case UInt8(ascii: "e"): return (0x1B, 2)
    case UInt8(ascii: "f"): return (0x0C, 2)
    case UInt8(ascii: "v"): return (0x0B, 2)
    default: return nil
    }
  }
}

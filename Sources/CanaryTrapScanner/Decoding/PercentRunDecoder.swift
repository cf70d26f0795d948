/// Percent-encoded text (`percent`): a query string, a path, a form body, read with each `%XX`
/// decoded, so that what was escaped before it was percent-encoded is found too (a JSON body in a
/// GraphQL query parameter is `json-escaped → percent`), whatever characters the encoder left
/// alone. A run holding `+` is also read with `+` as a space (`form`).
///
/// Each decoded byte maps back to its characters in the text, so a match is placed exactly; a
/// match no escape touched is the text's own, and the step is not named (see ``DecodingWorker``).
struct PercentRunDecoder: RunDecoder {
  var kind: EncodedRun.Kind { .percent }

  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: Range<Int>, into pieces: inout [DecodedPiece]) {
    var piece = DecodedPiece(bytes: [], span: run, step: .percent)
    piece.bytes.reserveCapacity(run.count)
    piece.starts.reserveCapacity(run.count)
    piece.ends.reserveCapacity(run.count)
    let digits = HexDigit.values
    var holdsPlus = false
    var index = run.lowerBound
    while index < run.upperBound {
      let byte = text[index]
      piece.starts.append(Int32(index))
      if byte == 0x25, index + 2 < run.upperBound, digits[Int(text[index + 1])] != 0xFF,
        digits[Int(text[index + 2])] != 0xFF
      {
        piece.bytes.append(digits[Int(text[index + 1])] << 4 | digits[Int(text[index + 2])])
        index += 3
      } else {
        holdsPlus = holdsPlus || byte == 0x2B
        piece.bytes.append(byte)
        index += 1
      }
      piece.ends.append(Int32(index))
    }
    pieces.append(piece)
    guard holdsPlus else { return }
    var form = piece
    form.step = .form
    for (offset, start) in piece.starts.enumerated() where text[Int(start)] == 0x2B {
      form.bytes[offset] = 0x20
    }
    pieces.append(form)
  }
}

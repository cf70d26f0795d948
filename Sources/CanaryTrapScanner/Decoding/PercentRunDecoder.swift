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
    var holdsPlus = false
    var index = run.lowerBound
    while index < run.upperBound {
      piece.starts.append(Int32(index))
      if let escaped = HexDigit.percentEscape(in: text, at: index, end: run.upperBound) {
        piece.bytes.append(escaped)
        index += 3
      } else {
        holdsPlus = holdsPlus || text[index] == 0x2B
        piece.bytes.append(text[index])
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

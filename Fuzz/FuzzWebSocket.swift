/// Fuzz target `websocket`: the first byte chooses the piece size and whether frames must be
/// masked, the rest are frames. Decodes in one piece and in pieces and checks both agree, that a
/// frame never exceeds the limits, that every decoded frame re-encodes and decodes to itself, and
/// that messages assembled from the frames are valid.
func fuzzWebSocket(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  let wire = Array(bytes.dropFirst())
  let requiresMask = first & 0x80 != 0
  let step = Int(first & 0x3F) + 1
  let limits = WebSocketFrameDecoder.Limits(maxFramePayload: 4096, maxMessageBytes: 8192)
  let whole = decodeWebSocket([wire[...]], requiresMask: requiresMask, limits: limits)
  let pieces = stride(from: 0, to: wire.count, by: step).map { wire[$0..<min(wire.count, $0 + step)] }
  let inPieces = decodeWebSocket(pieces, requiresMask: requiresMask, limits: limits)
  fuzzCheck(whole == inPieces, "decoding in pieces of \(step) changed the frames")
  var assembler = WebSocketMessageAssembler(maxMessageBytes: limits.maxMessageBytes)
  for result in whole {
    guard case .success(let frame) = result else { break }
    fuzzCheck(frame.payload.count <= limits.maxFramePayload, "a frame over the payload limit")
    fuzzCheck(
      !frame.opcode.isControl || (frame.fin && frame.payload.count <= 125), "a bad control frame passed")
    let again = decodeWebSocket([frame.encoded()[...]], requiresMask: false, limits: limits)
    fuzzCheck(again == [.success(frame)], "a frame did not survive re-encoding")
    switch assembler.receive(frame) {
    case .success(.text(let text)?):
      fuzzCheck(String(strictUTF8: Array(text.utf8)) == text, "text is not UTF-8")
    case .success(.binary(let data)?):
      fuzzCheck(data.count <= limits.maxMessageBytes, "a message over the limit")
    case .failure: return
    default: continue
    }
  }
}

private func decodeWebSocket(
  _ pieces: [ArraySlice<UInt8>], requiresMask: Bool, limits: WebSocketFrameDecoder.Limits
) -> [Result<WebSocketFrame, WebSocketFailure>] {
  var decoder = WebSocketFrameDecoder(requiresMask: requiresMask, limits: limits)
  var results: [Result<WebSocketFrame, WebSocketFailure>] = []
  for piece in pieces {
    decoder.append(piece)
    while let next = decoder.nextFrame() { results.append(next) }
  }
  return results
}

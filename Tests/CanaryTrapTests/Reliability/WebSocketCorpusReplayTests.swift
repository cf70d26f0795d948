import Testing

@testable import CanaryTrapServer

/// Replays `Fuzz/Corpus/websocket` through the fuzz target's invariants: one piece and many agree,
/// and the seeds decode to what they were written to hold.
@Suite("WebSocket fuzz corpus replay")
struct WebSocketCorpusReplayTests {
  private static func decode(_ wire: [UInt8], requiresMask: Bool, step: Int) -> [Result<
    WebSocketFrame, WebSocketFailure
  >] {
    var decoder = WebSocketFrameDecoder(requiresMask: requiresMask)
    var results: [Result<WebSocketFrame, WebSocketFailure>] = []
    for start in stride(from: 0, to: wire.count, by: step) {
      decoder.append(wire[start..<min(wire.count, start + step)])
      while let next = decoder.nextFrame() { results.append(next) }
    }
    return results
  }

  @Test("every seed decodes the same in one piece and in the fuzz target's pieces")
  func piecesAgree() {
    let inputs = FuzzCorpusReplayTests.corpus("websocket")
    #expect(inputs.count >= 5, "Fuzz/Corpus/websocket is missing or empty: nothing was replayed")
    for (name, bytes) in inputs {
      guard let first = bytes.first else { continue }
      let wire = Array(bytes.dropFirst())
      let requiresMask = first & 0x80 != 0
      let whole = Self.decode(wire, requiresMask: requiresMask, step: max(1, wire.count))
      #expect(whole == Self.decode(wire, requiresMask: requiresMask, step: Int(first & 0x3F) + 1), "\(name)")
      #expect(!whole.isEmpty, "\(name): no frame and no failure")
    }
  }

  @Test("twin: the seeds hold what their names say (a masked Hello, a refused unmasked frame)")
  func seedsHoldWhatTheySay() {
    let inputs = Dictionary(
      uniqueKeysWithValues: FuzzCorpusReplayTests.corpus("websocket").map { ($0.name, $0.bytes) })
    let hello = inputs["rfc-masked-hello"].map {
      Self.decode(Array($0.dropFirst()), requiresMask: true, step: 64)
    }
    #expect(hello == [.success(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))])
    let unmasked = inputs["unmasked-rejected"].map {
      Self.decode(Array($0.dropFirst()), requiresMask: true, step: 64)
    }
    #expect(unmasked?.count == 1)
    if case .failure(let failure)? = unmasked?.first {
      #expect(failure.code == .protocolError)
    } else {
      Issue.record("the unmasked seed was not refused: \(String(describing: unmasked))")
    }
  }
}

import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrapServer

/// The WebSocket codec against RFC 6455's own examples (§1.3, §5.7), a round trip in arbitrary
/// pieces, and every malformed frame RFC 6455 forbids, each answered with its close code.
@Suite("WebSocket frames and handshake (RFC 6455)")
struct WebSocketCodecTests {
  private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  private static func decodeAll(
    _ bytes: [UInt8], requiresMask: Bool = true, limits: WebSocketFrameDecoder.Limits = .init()
  )
    -> [Result<WebSocketFrame, WebSocketFailure>]
  {
    var decoder = WebSocketFrameDecoder(requiresMask: requiresMask, limits: limits)
    decoder.append(bytes)
    var results: [Result<WebSocketFrame, WebSocketFailure>] = []
    while let next = decoder.nextFrame() { results.append(next) }
    return results
  }

  @Test("SHA-1 gives the FIPS 180 test vectors")
  func sha1Vectors() {
    #expect(Self.hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(Self.hex(SHA1.digest([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(
      Self.hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(
      Self.hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test("the accept value of RFC 6455 §1.3's sample key, and a valid upgrade request accepted")
  func handshakeAccept() {
    #expect(
      WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    let headers = HTTPHeaders([
      ("Host", "127.0.0.1"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
      ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ])
    #expect(
      WebSocketHandshake.accept(method: "GET", headers: headers) == .success("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
  }

  @Test(
    "twin: upgrade requests that are not a WebSocket handshake are refused with the reason",
    arguments: [
      (
        "POST", [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13")],
        WebSocketHandshake.Refusal.notGET
      ),
      ("GET", [("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13")], .notAnUpgrade),
      (
        "GET", [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "8")],
        .unsupportedVersion
      ),
      (
        "GET",
        [
          ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
          ("Sec-WebSocket-Key", "c2hvcnQ="),
        ], .badKey
      ),
    ])
  func handshakeRefusals(method: String, fields: [(String, String)], refusal: WebSocketHandshake.Refusal) {
    #expect(WebSocketHandshake.accept(method: method, headers: HTTPHeaders(fields)) == .failure(refusal))
  }

  @Test("RFC 6455 §5.7's example frames decode to what the RFC says they carry")
  func rfcExamples() throws {
    let hello = Array("Hello".utf8)
    let unmasked = Self.decodeAll([0x81, 0x05] + hello, requiresMask: false)
    #expect(unmasked == [.success(WebSocketFrame(opcode: .text, payload: hello))])
    let masked = Self.decodeAll([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
    #expect(masked == [.success(WebSocketFrame(opcode: .text, payload: hello))])
    let fragmented = Self.decodeAll(
      [0x01, 0x03] + Array("Hel".utf8) + [0x80, 0x02] + Array("lo".utf8), requiresMask: false)
    var assembler = WebSocketMessageAssembler()
    let events = try fragmented.map { try assembler.receive($0.get()).get() }
    #expect(events == [nil, .text("Hello")])
    let pong = Self.decodeAll([0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
    #expect(pong == [.success(WebSocketFrame(opcode: .pong, payload: hello))])
    #expect(WebSocketFrame(opcode: .text, payload: hello).encoded() == [0x81, 0x05] + hello)
    #expect(
      WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 256)).encoded().prefix(4)
        == [0x82, 0x7E, 0x01, 0x00])
    #expect(
      WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 65536)).encoded().prefix(10)
        == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
  }

  @Test("masked frames of every length class decode the same whatever pieces they arrive in")
  func roundTripInPieces() throws {
    var generator = SystemRandomNumberGenerator()
    for length in [0, 1, 125, 126, 127, 65535, 65536, 70000] {
      let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let frame = WebSocketFrame(opcode: .binary, payload: payload)
      let key = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let wire =
        frame.encoded(maskingKey: key)
        + WebSocketFrame(opcode: .ping, payload: [1, 2]).encoded(maskingKey: key)
      var decoder = WebSocketFrameDecoder()
      var frames: [WebSocketFrame] = []
      var index = 0
      while index < wire.count {
        let step = Int.random(in: 1...max(1, wire.count / 7), using: &generator)
        decoder.append(wire[index..<min(wire.count, index + step)])
        index += step
        while let next = decoder.nextFrame() { frames.append(try next.get()) }
      }
      #expect(frames == [frame, WebSocketFrame(opcode: .ping, payload: [1, 2])], "length \(length)")
      #expect(decoder.bufferedBytes == 0)
    }
  }

  @Test(
    "malformed frames are answered with the right close code",
    arguments: [
      // unmasked from a client
      ([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], WebSocketCloseCode.protocolError),
      ([0xC1, 0x80, 1, 2, 3, 4], .protocolError),  // RSV1 with no extension
      ([0x83, 0x80, 1, 2, 3, 4], .protocolError),  // reserved opcode 3
      ([0x89, 0xFE, 0x00, 0x7E] + [UInt8](repeating: 0, count: 130), .protocolError),  // 126-byte ping
      ([0x09, 0x80, 1, 2, 3, 4], .protocolError),  // fragmented ping
      ([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], .protocolError),  // 64-bit length, top bit set
      ([0x82, 0xFE, 0x00, 0x05], .protocolError),  // 16-bit length of 5: not minimal
      ([0x82, 0xFF, 0, 0, 0, 0, 0x7F, 0, 0, 0], .messageTooBig),  // 2 GiB frame
    ] as [([UInt8], WebSocketCloseCode)])
  func malformedFrames(bytes: [UInt8], code: WebSocketCloseCode) {
    let results = Self.decodeAll(bytes)
    guard case .failure(let failure)? = results.first else {
      Issue.record("no failure for \(Self.hex(bytes)): \(results)")
      return
    }
    #expect(failure.code == code, "\(failure.reason)")
    #expect(results.count == 1)
  }

  @Test(
    "malformed messages are answered with the right close code",
    arguments: [
      // an overlong "/"
      ([WebSocketFrame(opcode: .text, payload: [0xC0, 0xAF])], WebSocketCloseCode.invalidPayload),
      ([WebSocketFrame(opcode: .text, payload: [0xED, 0xA0, 0x80])], .invalidPayload),  // a surrogate
      ([WebSocketFrame(opcode: .continuation, payload: [1])], .protocolError),
      (
        [
          WebSocketFrame(fin: false, opcode: .text, payload: [0x41]),
          WebSocketFrame(opcode: .binary, payload: [1]),
        ], .protocolError
      ),
      ([WebSocketFrame(opcode: .close, payload: [0x03])], .protocolError),  // one-byte close payload
      ([WebSocketFrame(opcode: .close, payload: [0x03, 0xED])], .protocolError),  // code 1005
      ([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])], .invalidPayload),  // reason not UTF-8
      (
        [
          WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 0, count: 600)),
          WebSocketFrame(opcode: .continuation, payload: [UInt8](repeating: 0, count: 600)),
        ], .messageTooBig
      ),
      // A message in one frame is held to the message limit too, below the frame limit.
      ([WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 1001))], .messageTooBig),
    ] as [([WebSocketFrame], WebSocketCloseCode)])
  func malformedMessages(frames: [WebSocketFrame], code: WebSocketCloseCode) {
    var assembler = WebSocketMessageAssembler(maxMessageBytes: 1000)
    let failure = frames.lazy.compactMap { frame -> WebSocketFailure? in
      if case .failure(let failure) = assembler.receive(frame) { return failure }
      return nil
    }.first
    #expect(failure?.code == code, "\(String(describing: failure))")
  }

  @Test(
    "twin: valid messages pass: UTF-8 cut between fragments, control frames between fragments, a close with a reason"
  )
  func validMessages() throws {
    var assembler = WebSocketMessageAssembler(maxMessageBytes: 1000)
    let euro = Array("€".utf8)  // three bytes, cut after the first
    let frames = [
      WebSocketFrame(fin: false, opcode: .text, payload: Array(euro.prefix(1))),
      WebSocketFrame(opcode: .ping, payload: [9]),
      WebSocketFrame(opcode: .continuation, payload: Array(euro.dropFirst())),
      WebSocketFrame.close(code: .normal, reason: "bye"),
    ]
    let events = try frames.map { try assembler.receive($0).get() }
    #expect(events == [nil, .ping([9]), .text("€"), .close(code: 1000, reason: "bye")])
    // A message in one frame of exactly the limit passes.
    let atLimit = [UInt8](repeating: 5, count: 1000)
    #expect(
      try assembler.receive(WebSocketFrame(opcode: .binary, payload: atLimit)).get() == .binary(atLimit))
  }

  @Test("a close frame's reason is cut to 125 bytes without splitting a character")
  func closeReasonFits() throws {
    let frame = WebSocketFrame.close(code: .policyViolation, reason: String(repeating: "é", count: 100))
    #expect(frame.payload.count <= 125)
    var assembler = WebSocketMessageAssembler()
    guard case .close(let code, let reason)? = try assembler.receive(frame).get() else {
      Issue.record("not a close event")
      return
    }
    #expect(code == 1008)
    #expect(reason == String(repeating: "é", count: 61))
  }
}

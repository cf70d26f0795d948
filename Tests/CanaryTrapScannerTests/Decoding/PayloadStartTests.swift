import Foundation
import Testing

@testable import CanaryTrapScanner

/// The test of a base64 run's first two decoded bytes, run before its head is decoded, never turns
/// away a payload the whole head test (`CompressedPayload.mayStart`) would open: checked for
/// every pair of first bytes, for payloads made by Python's compressors, and against the head
/// test on random base64 text.
@Suite struct PayloadStartTests {
  @Test func everyHeadThatMayStartAPayloadPassesTheTestOfItsFirstTwoBytes() {
    // Every pair the table turns away, with a random tail (random bytes are not text, so raw
    // deflate's tests are reached); kept short, as a test holds one of the suite's two threads.
    var generator = SystemRandomNumberGenerator()
    var missed: [String] = []
    var turnedAway = 0
    for pair in 0..<(1 << 16)
    where !CompressedPayload.mayStart(first: UInt8(pair >> 8), second: UInt8(pair & 0xFF)) {
      turnedAway += 1
      var head = (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
      head[0] = UInt8(pair >> 8)
      head[1] = UInt8(pair & 0xFF)
      if head.withUnsafeBufferPointer(CompressedPayload.mayStart) {
        missed.append(head.map { String($0, radix: 16) }.joined(separator: " "))
      }
    }
    #expect(missed.isEmpty, "\(missed.count): \(missed.prefix(3))")
    // The twin: random heads the table lets through do pass the whole test, some of them.
    var passed = 0
    for _ in 0..<4096 {
      let head = (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if head.withUnsafeBufferPointer(CompressedPayload.mayStart) {
        passed += 1
        #expect(CompressedPayload.mayStart(first: head[0], second: head[1]))
      }
    }
    #expect(turnedAway > (1 << 16) / 2 && passed > 20, "\(turnedAway) turned away, \(passed) passed")
  }

  @Test func theFirstTwoBytesTurnAwayMostRandomPairs() {
    let passing = (0..<(1 << 16)).filter {
      CompressedPayload.mayStart(first: UInt8($0 >> 8), second: UInt8($0 & 0xFF))
    }
    // Gzip's, zlib's and zip's signatures pass; a stored block (type 0) and type 3 do not.
    #expect(CompressedPayload.mayStart(first: 0x1F, second: 0x8B))
    #expect(CompressedPayload.mayStart(first: 0x78, second: 0x9C))
    #expect(CompressedPayload.mayStart(first: 0x50, second: 0x4B))
    #expect(CompressedPayload.mayStart(first: 0x42, second: 0x5A))
    #expect(!CompressedPayload.mayStart(first: 0x00, second: 0x00))
    #expect(!CompressedPayload.mayStart(first: 0x06, second: 0x00))
    #expect(passing.count < (1 << 16) / 2, "\(passing.count) pairs pass")
  }

  @Test func payloadsMadeByPythonPassTheTestOfTheirFirstCharacters() throws {
    var checked = 0
    for size in [2, 3000] {
      let body = Data((0..<size).map { UInt8(ascii: "a") + UInt8($0 * 7 % 26) })
      for (expression, chain) in DecodedRenderings.compressed {
        guard let text = try DecodedRenderings.python(expression, body) else { return }
        let characters = Array(text.utf8)
        let starts = characters.withUnsafeBufferPointer {
          Base64RunDecoder.startsCompressed($0.baseAddress!, 0..<characters.count)
        }
        #expect(starts, "\(chain) of \(size) bytes: \(text.prefix(16))")
        checked += 1
      }
    }
    #expect(checked == 2 * DecodedRenderings.compressed.count)
  }

  @Test func theTestOfTheFirstCharactersAgreesWithTheWholeHeadOnRandomBase64() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_".utf8)
    var disagreements: [String] = []
    for trial in 0..<10_000 {
      var characters = (0..<24).map { _ in alphabet.randomElement(using: &generator)! }
      // Padding and escapes among the first characters are read by the whole head test.
      if trial % 10 == 0 { characters[Int.random(in: 0..<3, using: &generator)] = UInt8(ascii: "=") }
      if trial % 10 == 1 { characters[Int.random(in: 0..<3, using: &generator)] = UInt8(ascii: "\\") }
      let expected = characters.withUnsafeBufferPointer { text in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { head in
          Base64RunDecoder.decodeHead(text.baseAddress!, 0..<characters.count, into: head).map {
            CompressedPayload.mayStart(UnsafeBufferPointer(rebasing: head[..<$0]))
          } ?? false
        }
      }
      let found = characters.withUnsafeBufferPointer {
        Base64RunDecoder.startsCompressed($0.baseAddress!, 0..<characters.count)
      }
      if found != expected { disagreements.append(String(decoding: characters, as: UTF8.self)) }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(3))")
  }
}

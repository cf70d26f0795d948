import Testing

@testable import CanaryTrapScanner

/// `LineJunctionSearch.sameShapeLength`, which reads 8 bytes at a time, gives what a byte-by-byte
/// reading gives on prefixes built to meet every case: equal words, digits in the same places with
/// other values, digit runs of other lengths, runs crossing a word, bytes past 0x7F.
@Suite struct SameShapePrefixTests {
  /// The byte-by-byte reading: every run of digits counts as one, whatever its value, and
  /// whatever its length while both are short.
  static func reference(_ head: [UInt8], _ continuation: [UInt8]) -> Int {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    var index = 0
    var matched = 0
    while index < head.count && matched < continuation.count {
      if isDigit(head[index]) && isDigit(continuation[matched]) {
        var (headEnd, end) = (index, matched)
        while headEnd < head.count && isDigit(head[headEnd]) { headEnd += 1 }
        while end < continuation.count && isDigit(continuation[end]) { end += 1 }
        let lengths = (headEnd - index, end - matched)
        if lengths.0 != lengths.1 && max(lengths.0, lengths.1) > LineJunctionSearch.longestVaryingDigits {
          break
        }
        (index, matched) = (headEnd, end)
        continue
      }
      guard head[index] == continuation[matched] else { break }
      index += 1
      matched += 1
    }
    return matched
  }

  static func measured(_ head: [UInt8], _ continuation: [UInt8]) -> Int {
    (head + [UInt8](repeating: 0, count: 8)).withUnsafeBufferPointer { head8 in
      (continuation + [UInt8](repeating: 0, count: 8)).withUnsafeBufferPointer { continuation8 in
        LineJunctionSearch.sameShapeLength(
          head8.baseAddress!, count: head.count, continuation8.baseAddress!, count: continuation.count)
      }
    }
  }

  @Test func digitBytesMarksExactlyTheDigits() {
    for byte in 0...255 {
      let word = UInt64(byte) << 24 | 0x4141_4141_0041_4141
      let expected: UInt64 = (0x30...0x39).contains(byte) ? 0xFF << 24 : 0
      #expect(LineJunctionSearch.digitBytes(word) == expected, "byte \(byte)")
    }
    #expect(LineJunctionSearch.digitBytes(0x3930_3930_3930_3930) == ~0)
  }

  @Test func readsTimestampsAndCountersAsTheReferenceDoes() {
    let pairs: [(String, String)] = [
      ("2026-11-29T19:00:00.000Z DEBUG x", "2026-11-29T19:00:01.250Z DEBUG y"),
      ("[net 3/14] GET /a", "[net 10/14] continued"),
      ("12:00:01.250 ", "12:00:02.007 "),
      ("D/Tag( 123): body", "D/Tag( 45678): more"),
      ("2026-11-29T19:00:00.000Z DEBUG x", "2026-11-29T19:00:00.000Z DEBUG y"),
      ("abcdefgh12345678ijklmnop", "abcdefgh1234567ijklmnop"),
      ("abcdefg1234567890 tail", "abcdefg1 tail"),
      ("\u{e9}t\u{e9} 2026 x", "\u{e9}t\u{e9} 1999 y"),
      ("no digits at all here", "no digits at all there"),
      // A digit run both sides end a word with, going on in one side past the other's end.
      ("43 b2 37", "87 b2 017"),
      ("441a:6b:3b:54639", "442a:5b:3b:514699"),
      ("2026-11-29T15:42:12.130Z ERROR", "2026-11-29T15:42:12.13057Z TRACE"),
      // A long run at another length is the lines' text, not a counter: the prefix ends before it.
      ("[net 3/7] 6235706365323834\"; \"number\"", "[net 4/7] 383632353635303738383435\"; "),
      ("[net 3/7] 62357063\"; x", "[net 4/7] 3836323536\"; y"),
    ]
    for (head, continuation) in pairs {
      let (h, c) = (Array(head.utf8), Array(continuation.utf8))
      #expect(Self.measured(h, c) == Self.reference(h, c), "\(head) | \(continuation)")
    }
  }

  @Test func agreesWithTheReferenceOnRandomPrefixes() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("0123456789:- []/aZ\u{7F}".utf8) + [0x80, 0xC3, 0xA9]
    var disagreements: [String] = []
    for _ in 0..<20_000 {
      let base = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator)!
      }
      var other = base
      // Change a few bytes, mostly digits into other digits, sometimes lengthen a run.
      for _ in 0..<Int.random(in: 0...3, using: &generator) where !other.isEmpty {
        let at = Int.random(in: 0..<other.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: other.insert(UInt8.random(in: 0x30...0x39, using: &generator), at: at)
        case 1: other[at] = alphabet.randomElement(using: &generator)!
        default:
          if (0x30...0x39).contains(other[at]) {
            other[at] = UInt8.random(in: 0x30...0x39, using: &generator)
          }
        }
      }
      if Self.measured(base, other) != Self.reference(base, other) {
        disagreements.append("\(base) | \(other)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(3))")
  }
}

import Foundation
import Testing

@testable import CanaryTrapScanner

/// Property-style checks against a naive oracle over thousands of random haystacks fed in random
/// chunk sizes. What is planted comes from ``IndependentEncoders`` (Foundation and hand-written
/// encoders), never from the scanner's own pattern list, so an encoder bug cannot hide in both;
/// the scanner's list is used only to check that every finding is a real occurrence of a literal.
@Suite struct ScannerOracleTests {
  /// A small deterministic generator (SplitMix64) so failures reproduce.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let valueAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789/+<&\"é ".unicodeScalars)
  /// Filler that shares bytes with the encodings (letters, digits, `%`, `=`), so near misses occur.
  static let filler = Array("abcXYZ0189%=+/\\&#;_- \n".utf8) + [0, 0xFF, 0xC3]

  static func randomCanary(_ index: Int, _ random: inout SeededGenerator) -> Canary {
    let length = Int.random(in: 12...28, using: &random)
    var value = "cn"
    for _ in 0..<length { value.unicodeScalars.append(valueAlphabet.randomElement(using: &random)!) }
    return Canary(value: value, location: .custom("oracle[\(index)]"))
  }

  /// Every (pattern index, range) where a pattern occurs in `haystack`: at every offset, each
  /// pattern starting with the offset's first two bytes is compared with `starts(with:)`.
  static func occurrences(of patterns: [ScanPattern], in haystack: [UInt8]) -> [(Int, Range<Int>)] {
    var byPrefix: [UInt16: [Int]] = [:]
    for (index, pattern) in patterns.enumerated() {
      byPrefix[UInt16(pattern.bytes[0]) << 8 | UInt16(pattern.bytes[1]), default: []].append(index)
    }
    var result: [(Int, Range<Int>)] = []
    for offset in 0..<max(haystack.count - 1, 0) {
      let key = UInt16(haystack[offset]) << 8 | UInt16(haystack[offset + 1])
      for index in byPrefix[key] ?? [] where haystack[offset...].starts(with: patterns[index].bytes) {
        result.append((index, offset..<offset + patterns[index].bytes.count))
      }
    }
    return result
  }

  /// Scans `bytes` by feeding random pieces to a stream with a small buffer.
  static func chunkedScan(_ scanner: LeakScanner, _ bytes: [UInt8], _ random: inout SeededGenerator)
    -> [LeakFinding]
  {
    let stream = scanner.makeStream(source: "haystack")
    var index = 0
    while index < bytes.count {
      let piece = min(bytes.count - index, Int.random(in: 1...300, using: &random))
      stream.feed(bytes[index..<index + piece])
      index += piece
    }
    return stream.finish()
  }

  /// Four seeds of 600 haystacks each (2,400 in all), run in parallel.
  @Test(arguments: 0..<4) func exactLiteralsAgreeWithTheOracle(seed: UInt64) {
    var random = SeededGenerator(state: 42 + seed)
    var options = ScanOptions()
    options.minFragment = nil
    options.encodings.remove(.caseInsensitive)
    var haystacks = 0
    var problems: [String] = []
    for round in 0..<6 {
      let canaries = (0..<Int.random(in: 1...4, using: &random)).map {
        Self.randomCanary(round * 10 + $0, &random)
      }
      let chunkSize = Int.random(in: 64...700, using: &random)
      let scanner = LeakScanner(canaries: canaries, options: options, chunkSize: chunkSize)
      let whole = LeakScanner(canaries: canaries, options: options)
      let patterns = scanner.patterns.filter { !$0.isAnchor }  // anchors are parts of leaks, not leaks
      let literals = canaries.flatMap { canary in
        ([IndependentEncoders.Literal(encoding: "raw", variant: "utf8", bytes: canary.bytes)]
          + IndependentEncoders.literals(of: canary.value)).map { (canary: canary, literal: $0) }
      }
      for _ in 0..<100 {
        haystacks += 1
        var bytes: [UInt8] = []
        var planted: [(canary: Canary, literal: IndependentEncoders.Literal, at: Int)] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
          for _ in 0..<Int.random(in: 0...120, using: &random) {
            bytes.append(Self.filler.randomElement(using: &random)!)
          }
          let (canary, literal) = literals.randomElement(using: &random)!
          planted.append((canary, literal, bytes.count))
          bytes += literal.bytes
        }
        for _ in 0..<Int.random(in: 0...50, using: &random) {
          bytes.append(Self.filler.randomElement(using: &random)!)
        }

        let findings = Self.chunkedScan(scanner, bytes, &random)
        // Chunking never changes the answer.
        if findings != whole.scan(Data(bytes), source: "haystack") {
          problems.append("chunking changed findings")
        }
        // Every finding is a real occurrence of a literal of its canary in its encoding.
        for finding in findings {
          let real = patterns.contains {
            $0.canary == finding.canary && $0.chain == finding.encodings
              && bytes[finding.offset...].starts(with: $0.bytes)
          }
          if !real { problems.append("spurious \(finding)") }
        }
        // Every planted literal is covered by a finding of its canary.
        for (canary, literal, at) in planted {
          let covered = findings.contains {
            $0.canary == canary && $0.offset < at + literal.bytes.count
              && $0.offset + 1 > at - 200  // starts before the plant ends; overlaps are resolved
          }
          if !covered { problems.append("missed \(literal) at \(at)") }
        }
        // The oracle's occurrences that overlap no other occurrence of the same canary are exactly found.
        var oracle: [(Canary, String, Range<Int>)] = []
        for (index, range) in Self.occurrences(of: patterns, in: bytes) {
          oracle.append((patterns[index].canary, patterns[index].chain.description, range))
        }
        for (canary, encoding, range) in oracle {
          let isolated = !oracle.contains { $0.0 == canary && $0.2 != range && $0.2.overlaps(range) }
          if isolated {
            if !findings.contains(where: {
              $0.canary == canary && $0.encoding == encoding && $0.offset == range.lowerBound
            }) {
              problems.append("oracle found \(encoding) at \(range) but the scanner did not")
            }
          }
        }
      }
    }
    #expect(haystacks == 600)
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test func fragmentsAgreeWithPlantedRuns() {
    var random = SeededGenerator(state: 7)
    let separators = Array("#!~|\n".utf8) + [0, 0xFF]
    var problems: [String] = []
    for round in 0..<10 {
      let canaries = (0..<3).map { index in
        let length = Int.random(in: 20...40, using: &random)
        let value =
          "cn"
          + String(
            (0..<length).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement(using: &random)! })
        return Canary(value: value, location: .custom("fragment[\(round)-\(index)]"))
      }
      let minFragment = Int.random(in: 8...18, using: &random)
      var options = ScanOptions()
      options.minFragment = minFragment
      let scanner = LeakScanner(
        canaries: canaries, options: options, chunkSize: Int.random(in: 64...400, using: &random))
      for _ in 0..<50 {
        var bytes: [UInt8] = []
        var expected: [(Canary, Int, String)] = []
        for _ in 0..<Int.random(in: 1...5, using: &random) {
          for _ in 0..<Int.random(in: 1...40, using: &random) {
            bytes.append(separators.randomElement(using: &random)!)
          }
          let canary = canaries.randomElement(using: &random)!
          let value = canary.bytes
          let length = Int.random(in: (minFragment - 3)...value.count, using: &random)
          let start = Int.random(in: 0...(value.count - length), using: &random)
          var piece = Array(value[start..<start + length])
          let upper = Bool.random(using: &random)
          if upper { piece = Array(String(decoding: piece, as: UTF8.self).uppercased().utf8) }
          if length == value.count {
            expected.append((canary, bytes.count, upper ? "case-insensitive" : "raw"))
          } else if length >= minFragment {
            expected.append((canary, bytes.count, "fragment"))
          }
          bytes += piece
        }
        bytes.append(UInt8(ascii: "#"))
        let findings = Self.chunkedScan(scanner, bytes, &random)
        let found = findings.map { "\($0.canary.value)@\($0.offset):\($0.encoding)" }
        if found != expected.map({ "\($0.0.value)@\($0.1):\($0.2)" }) {
          problems.append("\(found) vs \(expected)")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }
}

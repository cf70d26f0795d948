import Foundation
import Testing

@testable import CanaryTrapScanner

/// The junction filter holds every seventh q-gram of each literal and its last, which must let
/// through every cut of every literal, keep most other junctions out, and stay within its bound.
@Suite struct JunctionFilterTests {
  /// A filter holding `literals`, as a set compiles it.
  static func filter(holding literals: [[UInt8]]) -> JunctionFilter {
    let builder = JunctionFilter.Builder(estimatedGrams: literals.count * 64, workers: 1)
    for literal in literals {
      (literal + [UInt8](repeating: 0, count: 8)).withUnsafeBufferPointer {
        builder.insertGrams(of: $0.baseAddress!, length: literal.count, worker: 0)
      }
    }
    return builder.finish(shortest: literals.map(\.count).min()!)
  }

  /// Whether `filter` lets through `left` joined with `right`, as the junction pass probes it.
  static func lets(_ filter: JunctionFilter, _ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>) -> Bool {
    var leftWord: UInt64 = 0
    for (index, byte) in left.suffix(8).reversed().enumerated() {
      leftWord |= UInt64(byte) << UInt64(8 * (7 - index))
    }
    var rightWord: UInt64 = 0
    for (index, byte) in right.prefix(8).enumerated() { rightWord |= UInt64(byte) << UInt64(8 * index) }
    return filter.mayJoin(
      left: leftWord, leftCount: left.count, right: rightWord, rightCount: min(7, right.count))
  }

  static func randomBytes(_ count: Int, _ generator: inout some RandomNumberGenerator) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
  }

  @Test func everyCutOfEveryLiteralLengthPasses() {
    var generator = SystemRandomNumberGenerator()
    let literals = (8...80).map { Self.randomBytes($0, &generator) }
    let filter = Self.filter(holding: literals)
    #expect(!filter.passesAll)
    var missed: [String] = []
    for literal in literals {
      for cut in 1..<literal.count where !Self.lets(filter, literal[..<cut], literal[cut...]) {
        missed.append("length \(literal.count) cut \(cut)")
      }
    }
    #expect(missed.isEmpty, "\(missed.prefix(8))")
  }

  /// The twin: the same filter keeps out junctions of bytes it does not hold.
  @Test func junctionsOfOtherBytesMostlyDoNotPass() {
    var generator = SystemRandomNumberGenerator()
    let filter = Self.filter(holding: (8...80).map { Self.randomBytes($0, &generator) })
    var passed = 0
    for _ in 0..<10_000 {
      let text = Self.randomBytes(16, &generator)
      if Self.lets(filter, text[..<8], text[8...]) { passed += 1 }
    }
    #expect(passed < 200, "\(passed) of 10,000 junctions passed")
  }

  /// A probe's bits come from a fixed table: five bits each, the same every run, and hardly any
  /// two alike (two alike would make two q-grams in one word one).
  @Test func everyBitPatternSetsFiveBitsAndFewRepeat() {
    let patterns = JunctionFilter.patterns
    #expect(patterns.count == 1024)
    #expect(patterns.allSatisfy { $0.nonzeroBitCount == 5 })
    #expect(Set(patterns).count > 1000, "\(Set(patterns).count) distinct")
    // SplitMix64 from the fixed seed, as Python computes it.
    #expect(
      Array(patterns.prefix(3)) == [0x2002_0000_0101_0010, 0x2000_4100_0000_0280, 0x2008_0000_1000_4020])
  }

  @Test func theFilterStaysWithinItsBitsAndIsDroppedWhenItWouldBeFull() {
    // A set within the bound gets its bits per q-gram; a larger one the bound; one whose q-grams
    // would get fewer than the fewest bits each gets none, and every junction passes.
    let fitting = JunctionFilter.maxBits / JunctionFilter.bitsPerGram
    #expect(JunctionFilter.wordCount(forGrams: fitting)! * 64 == JunctionFilter.maxBits)
    #expect(JunctionFilter.wordCount(forGrams: fitting / 2)! * 64 == JunctionFilter.maxBits / 2)
    let crowded = JunctionFilter.maxBits / JunctionFilter.fewestBitsPerGram
    #expect(JunctionFilter.wordCount(forGrams: crowded)! * 64 == JunctionFilter.maxBits)
    #expect(JunctionFilter.wordCount(forGrams: crowded + 1) == nil)
    let dropped = JunctionFilter.Builder(estimatedGrams: crowded + 1, workers: 2).finish(shortest: 16)
    #expect(dropped.passesAll && dropped.bitCount == 0)
    #expect(Self.lets(dropped, [1, 2, 3][...], [4, 5, 6][...]))
  }

  @Test func aSetWithALiteralShorterThanAQGramPassesEveryJunction() {
    let filter = Self.filter(holding: [Array("short".utf8), Array("a longer literal".utf8)])
    #expect(filter.passesAll)
    #expect(Self.lets(filter, Array("xyz".utf8)[...], Array("abc".utf8)[...]))
  }

  @Test func aCanaryCompiledByAnyWorkerIsFoundCutAcrossALine() {
    // Sets of a few hundred canaries compile on every processor, each into its own bits, merged.
    let canaries = ScanScalingTests.canaries(3 * Compilation.canariesPerWorker)
    let scanner = LeakScanner(
      canaries: canaries, options: ScanOptions(encodings: Set(ScanEncoding.allCases), minFragment: nil))
    #expect(!scanner.matcher.junctionFilter.passesAll)
    for index in [0, canaries.count / 2, canaries.count - 1] {
      let value = canaries[index].value
      let cut = value.index(value.startIndex, offsetBy: value.count / 2)
      let text = "2026-11-29T19:00:00.000Z INFO token=\(value[..<cut])\n\(value[cut...]) done\n"
      let findings = scanner.scan(Data(text.utf8), source: "log")
      #expect(findings.map(\.canary) == [canaries[index]], "canary \(index)")
    }
  }
}

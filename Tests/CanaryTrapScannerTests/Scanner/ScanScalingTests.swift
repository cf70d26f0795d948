import Foundation
import Testing

@testable import CanaryTrapScanner

/// How the compiled matcher grows with the number of canaries, pinned by what it counts (index
/// entries, bytes, literals rebuilt) rather than by time, so that it holds on any machine.
@Suite struct ScanScalingTests {
  /// `count` canaries cycling through every shape, as `canary manifest --shape mixed` mints them.
  static func canaries(_ count: Int, shapes: [CanaryShape] = CanaryShape.allCases) -> [Canary] {
    let generator = CanaryGenerator()
    return (0..<count).map { index in
      let shape = shapes[index % shapes.count]
      return Canary(value: generator.makeValue(shape), location: .custom("scale[\(index)]"), shape: shape)
    }
  }

  /// The budget that gives `count` canaries the step 100,000 canaries get by default.
  static func budgetOfALargeSet(_ count: Int) -> Int { count * IndexLayout.entriesPerCanaryAtStepOne }

  @Test func largeSetsProbeEveryByteAndSmallOnesEveryNinth() {
    #expect(IndexLayout.step(canaryCount: 100_000, minFragment: 16) == 1)
    #expect(IndexLayout.step(canaryCount: 250_000, minFragment: 16) == 1)
    #expect(IndexLayout.step(canaryCount: 1_000, minFragment: 16) == 9)
    #expect(IndexLayout.step(canaryCount: 1_000, minFragment: 8) == 1)  // 8 bytes hold one q-gram
  }

  @Test func aLargeSetKeepsAboutOneIndexEntryPerLiteralAndNoLiteralBytes() {
    let canaries = Self.canaries(600)
    let matcher = CompiledMatcher(
      canaries: canaries, options: ScanOptions(), entryBudget: Self.budgetOfALargeSet(600))
    #expect(matcher.layout.step == 1)
    var literals = 0
    var literalBytes = 0
    LeakScanner.forEachPattern(of: canaries, options: ScanOptions()) { pattern in
      literals += 1
      literalBytes += pattern.bytes.count
    }
    // One q-gram per literal, a second for the tail of base64 that line breaks may split, and one
    // every 9 bytes of each value for fragments.
    #expect(
      matcher.index.entryCount <= literals * 3 / 2,
      "\(matcher.index.entryCount) entries, \(literals) literals")
    // The literals themselves (about 3.5 KB a canary) are not kept: entries (16 bytes), filters
    // and buckets (3 or 4), the values and their flags, under half the literals' size; the junction
    // filter (16 bits for every seventh q-gram of each literal) under a third of it.
    let junctionFilter = matcher.junctionFilter.bitCount / 8
    let perCanary = (matcher.memoryFootprint - junctionFilter) / canaries.count
    #expect(perCanary <= 1_600, "\(perCanary) bytes per canary")
    #expect(perCanary * 2 < literalBytes / canaries.count, "\(perCanary) bytes per canary")
    #expect(junctionFilter > 0)
    #expect(junctionFilter * 3 < literalBytes, "\(junctionFilter / canaries.count) filter bytes per canary")
  }

  @Test func theDefaultStepIndexesNineOffsetsOfEachLiteral() {
    // The twin of the bound above: the same count at the default step takes several times more.
    let canaries = Self.canaries(600)
    let small = CompiledMatcher(canaries: canaries, options: ScanOptions())
    let large = CompiledMatcher(
      canaries: canaries, options: ScanOptions(), entryBudget: Self.budgetOfALargeSet(600))
    #expect(small.layout.step == 9)
    #expect(small.index.entryCount > 4 * large.index.entryCount)
  }

  /// Text holding each planted canary in a different encoding, and a clean twin.
  static func plantedText(_ canaries: [Canary]) -> String {
    let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
    var lines: [String] = []
    for (index, canary) in canaries.enumerated() {
      let value = canary.value
      switch index % 6 {
      case 0: lines.append("token=\(value)")
      case 1: lines.append("Authorization: Basic \(Data("user:\(value)".utf8).base64EncodedString())")
      case 2: lines.append("q=\(value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")")
      case 3: lines.append("hex=\(Data(value.utf8).map { String(format: "%02x", $0) }.joined())")
      case 4:
        let wrapped = Data(value.utf8).base64EncodedString(options: [
          .lineLength64Characters, .endLineWithLineFeed,
        ])
        lines.append("pem=\n\(wrapped)\n")
      default: lines.append("partial=...\(value.dropFirst(4).prefix(20))...")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func aLargeSetFindsWhatTheDefaultStepFinds() {
    let canaries = Self.canaries(600)
    let text = Data(Self.plantedText(Array(canaries.prefix(60))).utf8)
    let large = LeakScanner(
      canaries: canaries, options: ScanOptions(), chunkSize: 1 << 20, entryBudget: Self.budgetOfALargeSet(600)
    )
    let small = LeakScanner(canaries: canaries)
    let found = large.scan(text, source: "planted.log")
    #expect(found.count >= 60)
    #expect(found == small.scan(text, source: "planted.log"))
    #expect(large.scan(Data("nothing planted here\n".utf8), source: "clean.log").isEmpty)
  }

  @Test func aLargeSetFindsNothingInCanariesOfTheSameShapesItDoesNotHold() {
    // Strangers minted like the set (same prefixes, same alphabets), planted in every encoding
    // above: near misses of every canary, and not one of them.
    let canaries = Self.canaries(600)
    let strangers = Self.canaries(60)
    #expect(Set(strangers.map(\.value)).isDisjoint(with: canaries.map(\.value)))
    let large = LeakScanner(
      canaries: canaries, options: ScanOptions(), chunkSize: 1 << 20, entryBudget: Self.budgetOfALargeSet(600)
    )
    let found = large.scan(Data(Self.plantedText(strangers).utf8), source: "strangers.log")
    #expect(found.isEmpty, "\(found.prefix(3))")
    // The twin: one canary of the set among them is found.
    let mixed = Self.plantedText(strangers) + "token=\(canaries[599].value)\n"
    #expect(large.scan(Data(mixed.utf8), source: "mixed.log").map(\.canary) == [canaries[599]])
  }

  /// Every JWT canary starts with the same header, and its base64 with the same characters: a
  /// probe there hits an entry of each canary, which a check of a second q-gram turns away.
  @Test func textEveryCanaryShares() throws {
    let canaries = Self.canaries(3_000, shapes: [.jwt])
    let matcher = CompiledMatcher(
      canaries: canaries, options: ScanOptions(), entryBudget: Self.budgetOfALargeSet(3_000))
    let stranger = CanaryGenerator().makeValue(.jwt)  // same header, in no canary
    let shared = "Authorization: Basic \(Data("user:\(stranger)".utf8).base64EncodedString())\n\(stranger)\n"
    var cache = CanaryTargetsCache()
    #expect(candidates(matcher, shared, &cache).filter { $0.rank != .fragment }.isEmpty)
    #expect(cache.rebuilds <= 2, "\(cache.rebuilds) canaries rebuilt")
    // The twin: a canary of the set in the same text is found, its literals rebuilt.
    let planted = "Authorization: Basic \(Data("user:\(canaries[1234].value)".utf8).base64EncodedString())\n"
    var plantedCache = CanaryTargetsCache()
    #expect(candidates(matcher, planted, &plantedCache).contains { $0.canary == 1234 && $0.rank == .exact })
    #expect(plantedCache.rebuilds >= 1)
  }

  func candidates(_ matcher: CompiledMatcher, _ text: String, _ cache: inout CanaryTargetsCache)
    -> [MatchCandidate]
  {
    var bytes = Array(text.utf8)
    let count = bytes.count
    bytes += [UInt8](repeating: 0, count: 8)
    var found: [MatchCandidate] = []
    bytes.withUnsafeBufferPointer {
      matcher.findCandidates(in: $0.baseAddress!, count: count, cache: &cache, into: &found)
    }
    return found
  }

  @Test func encodingOrdinalsFollowAllCases() {
    #expect(ScanEncoding.allCases.enumerated().allSatisfy { $1.ordinal == $0 })
  }
}

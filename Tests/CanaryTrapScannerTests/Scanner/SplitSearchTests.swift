import Foundation
import Testing

@testable import CanaryTrapScanner

/// A large buffer searched as two halves on two threads finds exactly what one search finds:
/// leaks planted across the halves' seam and the first half's cut, in every encoding, as
/// fragments, in another case and wrapped across two lines.
@Suite struct SplitSearchTests {
  typealias Generator = ScannerOracleTests.SeededGenerator

  /// What a test plants: a canary's literal in some encoding, a fragment of its value, or its
  /// value in upper case.
  static func plantable(_ canaries: [Canary], _ random: inout Generator) -> [(Canary, [UInt8])] {
    canaries.flatMap { canary in
      let value = canary.bytes
      let fragmentLength = Int.random(in: 12..<value.count, using: &random)
      let fragmentStart = Int.random(in: 0...(value.count - fragmentLength), using: &random)
      let forms =
        [
          value, Array(canary.value.uppercased().utf8),
          Array(value[fragmentStart..<fragmentStart + fragmentLength]),
        ]
        + IndependentEncoders.literals(of: canary.value).map(\.bytes)
      return forms.map { (canary, $0) }
    }
  }

  /// The candidates of `text`, main pass and line junctions, searched whole or split, in a
  /// canonical order.
  static func candidates(_ matcher: CompiledMatcher, _ text: [UInt8], count: Int, splits: Bool)
    -> [MatchCandidate]
  {
    var search = SplitSearch()
    search.splits = splits
    var cache = CanaryTargetsCache()
    var found: [MatchCandidate] = []
    text.withUnsafeBufferPointer {
      search.findCandidates(
        matcher, junctions: LineJunctionSearch(matcher: matcher), in: $0.baseAddress!, count: count,
        firstLineHead: [], cache: &cache, into: &found)
    }
    return Set(found).sorted {
      ($0.start, $0.end, $0.canary, $0.chain) < ($1.start, $1.end, $1.canary, $1.chain)
    }
  }

  @Test(arguments: 0..<3) func splitBufferFindsWhatOneSearchFinds(seed: UInt64) {
    var random = Generator(state: 1_000 + seed)
    let canaries = (0..<4).map { ScannerOracleTests.randomCanary($0, &random) }
    let scanner = LeakScanner(canaries: canaries, options: ScanOptions())
    let matcher = scanner.matcher
    let forms = Self.plantable(canaries, &random)
    let count = 2 * SplitSearch.bytesWorthASecondThread
    let half = count / 2
    let cut = half + matcher.maxLength
    var plantedCount = 0
    var found = 0
    for _ in 0..<12 {
      var text =
        (0..<count).map { _ in ScannerOracleTests.filler.randomElement(using: &random)! }
        + [UInt8](repeating: 0, count: 8)
      var planted: [(canary: Canary, range: Range<Int>)] = []
      // Forms in a random order across the seam or the cut, at a random distance, where they fit.
      for (canary, form) in forms.shuffled(using: &random) {
        // Every third form wrapped across two lines, as a logger that breaks long lines writes it.
        var bytes = form
        if Int.random(in: 0..<3, using: &random) == 0 {
          bytes.insert(
            contentsOf: Array("\n    ".utf8), at: Int.random(in: 4...(form.count - 4), using: &random))
        }
        let seam = Bool.random(using: &random) ? half : cut
        let start = seam - Int.random(in: 0...bytes.count, using: &random)
        let range = start..<start + bytes.count
        guard !planted.contains(where: { $0.range.overlaps(range.lowerBound - 1..<range.upperBound + 1) })
        else { continue }
        text.replaceSubrange(range, with: bytes)
        planted.append((canary, range))
      }
      let whole = Self.candidates(matcher, text, count: count, splits: false)
      let split = Self.candidates(matcher, text, count: count, splits: true)
      #expect(split == whole, "split search differs from one search")
      let resolvedWhole = CandidateResolver.resolve(whole, maxLength: matcher.maxLength)
      let resolvedSplit = CandidateResolver.resolve(split, maxLength: matcher.maxLength)
      #expect(resolvedSplit == resolvedWhole)
      // The plants are found: the comparison is not between two searches that found nothing.
      plantedCount += planted.count
      for (canary, range) in planted {
        let index = Int32(canaries.firstIndex(of: canary)!)
        if split.contains(where: {
          $0.canary == index && $0.start < range.upperBound && $0.end > range.lowerBound
        }) {
          found += 1
        }
      }
    }
    // Some fragments are shorter than the scanner's shortest.
    #expect(plantedCount >= 20 && found * 4 >= plantedCount * 3, "\(found) of \(plantedCount) plants found")
  }

  @Test func smallBufferIsSearchedOnce() {
    var random = Generator(state: 5)
    let canaries = [ScannerOracleTests.randomCanary(0, &random)]
    let matcher = LeakScanner(canaries: canaries, options: ScanOptions()).matcher
    let count = SplitSearch.bytesWorthASecondThread - 1
    var text = [UInt8](repeating: UInt8(ascii: "."), count: count + 8)
    text.replaceSubrange(count / 2 - 4..<count / 2 - 4 + canaries[0].bytes.count, with: canaries[0].bytes)
    let split = Self.candidates(matcher, text, count: count, splits: true)
    #expect(split == Self.candidates(matcher, text, count: count, splits: false))
    #expect(split.contains { $0.start == count / 2 - 4 && $0.rank == .exact })
  }

  /// A log of several megabytes streamed in the default buffer, some canaries wrapped across two
  /// lines: every finding, with its line, column and excerpt, is the same whether each buffer is
  /// split or not.
  @Test func streamedLogFindingsDoNotDependOnTheSplit() {
    var random = Generator(state: 77)
    let canaries = (0..<6).map { ScannerOracleTests.randomCanary($0, &random) }
    let scanner = LeakScanner(canaries: canaries, options: ScanOptions())
    let forms = Self.plantable(canaries, &random)
    var log: [UInt8] = []
    var plants = 0
    while log.count < 3 << 20 {
      log += Array("2026-12-05T10:00:00Z INFO request GET /v1/items?page=\(log.count % 97) took 12ms\n".utf8)
      if Int.random(in: 0..<400, using: &random) == 0 {
        var form = forms.randomElement(using: &random)!.1
        if Bool.random(using: &random) {  // wrapped, the continuation indented
          form.insert(
            contentsOf: Array("\n    ".utf8), at: Int.random(in: 4...(form.count - 4), using: &random))
        }
        log += Array("DEBUG body=".utf8) + form + [0x0A]
        plants += 1
      }
    }
    func scan(splits: Bool) -> (findings: [LeakFinding], total: Int) {
      let stream = scanner.makeStream(source: "app.log")
      stream.split.splits = splits
      var index = 0
      while index < log.count {
        let end = min(log.count, index + 65_536)
        stream.feed(log[index..<end])
        index = end
      }
      return (stream.finish(), stream.totalFindings)
    }
    let split = scan(splits: true)
    let whole = scan(splits: false)
    #expect(split.findings == whole.findings && split.total == whole.total)
    #expect(plants > 20)
    #expect(split.total * 4 >= plants * 3, "\(split.total) findings for \(plants) plants")
  }
}

/// A Bloom filter over every 8-byte q-gram of every literal of a canary set, so that a line
/// junction is joined and searched only when the bytes across it could belong to one literal.
///
/// A literal of `n` bytes (at least 10) cut after `k` bytes holds the q-gram of the joined text
/// that starts 1, 4 or 7 bytes before the cut: 1 when `k` < 4, 7 when `n - k` < 4, else 4. So
/// three probes per junction decide; a set with a shorter literal probes all seven, and one with
/// a literal shorter than 8 bytes lets every junction through. About 16 bits per q-gram, at most
/// ``maxBits``: a larger set only lets more junctions through.
final class JunctionFilter: @unchecked Sendable {
  /// The most bits the filter takes: 32 MiB.
  static let maxBits = 1 << 28

  private let words: UnsafeMutablePointer<UInt64>
  private let shift: UInt64
  /// Where q-grams start before the cut, when the filter is on.
  let probesBeforeCut: [Int]
  /// Whether every junction passes (a literal shorter than a q-gram).
  let passesAll: Bool

  /// Built from the literals `matcher` rebuilds for each canary.
  init(matcher: CompiledMatcher, canaryCount: Int) {
    passesAll = matcher.minLength < 8
    probesBeforeCut = matcher.minLength >= 10 ? [1, 4, 7] : Array(1...7)
    let estimate = passesAll ? 0 : max(1, Self.gramEstimate(matcher: matcher, canaryCount: canaryCount))
    var bits = 1 << 16
    while bits < estimate * 16 && bits < Self.maxBits { bits <<= 1 }
    shift = UInt64(64 - (bits.trailingZeroBitCount - 6))
    words = .allocate(capacity: bits >> 6)
    words.initialize(repeating: 0, count: bits >> 6)
    guard !passesAll else { return }
    for canary in 0..<canaryCount {
      let rebuilt = matcher.rebuildTargets(of: canary)
      for target in rebuilt.targets where target.length >= 8 {
        let literal = rebuilt.bytes + target.start
        for offset in 0...(target.length - 8) {
          insert(CompiledMatcher.foldedGram(at: literal + offset, mask: ~0))
        }
      }
    }
  }

  deinit { words.deallocate() }

  /// About how many q-grams the set's literals hold, from its first canaries.
  private static func gramEstimate(matcher: CompiledMatcher, canaryCount: Int) -> Int {
    let sampled = min(canaryCount, 16)
    guard sampled > 0 else { return 0 }
    var grams = 0
    for canary in 0..<sampled {
      grams += matcher.rebuildTargets(of: canary).targets.reduce(0) { $0 + max(0, $1.length - 7) }
    }
    return grams / sampled * canaryCount + grams
  }

  private func insert(_ gram: UInt64) {
    let hash = gram &* ByteFold.hashMultiplier
    words[Int(truncatingIfNeeded: hash &>> shift)] |= Self.bits(hash)
  }

  /// Whether the filter may hold the filter-folded `gram`.
  @inline(__always)
  func mayHold(_ gram: UInt64) -> Bool {
    let hash = (gram | ByteFold.filterFold) &* ByteFold.hashMultiplier
    let bits = Self.bits(hash)
    return words[Int(truncatingIfNeeded: hash &>> shift)] & bits == bits
  }

  /// Two bits of a word, from hash bits the word index does not use.
  @inline(__always)
  private static func bits(_ hash: UInt64) -> UInt64 {
    (1 &<< (hash & 63)) | (1 &<< ((hash &>> 6) & 63))
  }

  /// Whether the bytes `left` (ending at the cut) and `right` (starting there) may hold a cut
  /// literal: every probe that fits is checked.
  func mayJoin(_ left: UnsafePointer<UInt8>, leftCount: Int, _ right: UnsafePointer<UInt8>, rightCount: Int)
    -> Bool
  {
    if passesAll { return true }
    for before in probesBeforeCut where before <= leftCount && 8 - before <= rightCount {
      var gram: UInt64 = 0
      for index in 0..<8 {
        let byte = index < before ? left[index - before] : right[index - before]
        gram |= UInt64(byte) &<< UInt64(8 * index)
      }
      if mayHold(gram) { return true }
    }
    return false
  }
}

/// A Bloom filter over the 8-byte q-grams of every literal of a canary set, so that a line
/// junction is joined and searched only when the bytes across it could belong to one literal.
///
/// A literal is held at every ``gramStride``-th q-gram and at its last: a literal of `n` bytes
/// (at least 8) cut after `k` bytes then holds one of them starting 1 to 7 bytes before the cut
/// (the q-grams that fit start anywhere from `max(0, k - 7)` to `min(n - 8, k - 1)`: seven in a
/// row, or a range holding the first or the last), so the seven q-grams across a junction decide.
/// The bits are set while the set compiles (``Builder``): ``bitsPerGram`` per q-gram (about 1 KB
/// per canary), five in one word, at most ``maxBits``, so a larger set only lets more junctions
/// through. A set whose q-grams would get fewer than ``fewestBitsPerGram`` each, or with a literal
/// shorter than a q-gram, gets no filter: every junction passes.
final class JunctionFilter: @unchecked Sendable {
  /// The most bits the filter takes: 16 MiB, so that a set of 100,000 canaries (too large for
  /// it) stays within its memory bound; each compiling worker holds a copy until they merge.
  static let maxBits = 1 << 27
  /// The most bits the filter of the literals holding a blank takes: 2 MiB, as it is only worth
  /// its memory while it stays in the cache; a larger set goes without (all such junctions pass).
  static let maxBlankBits = 1 << 24
  /// Offsets between two q-grams of a literal held by the filter.
  static let gramStride = 7
  /// Bits per q-gram: with five bits each, about one probe in 250 passes a wrong q-gram.
  static let bitsPerGram = 16
  /// Below this many bits per q-gram a junction's seven probes would pass a fifth of the time
  /// or more: no filter is built.
  static let fewestBitsPerGram = 8

  private let words: UnsafeMutablePointer<UInt64>?
  private let wordCount: UInt64
  /// ``patterns``, held so a probe reads no global.
  private let patterns = JunctionFilter.patterns
  /// How many bits the filter holds, 0 when every junction passes.
  let bitCount: Int

  /// Whether every junction passes: no filter was built.
  var passesAll: Bool { words == nil }

  /// A filter that lets every junction through.
  init() {
    words = nil
    wordCount = 0
    bitCount = 0
  }

  fileprivate init(words: UnsafeMutablePointer<UInt64>, wordCount: Int) {
    self.words = words
    self.wordCount = UInt64(wordCount)
    bitCount = wordCount * 64
  }

  deinit { words?.deallocate() }

  /// The filter's size in 64-bit words for about `grams` q-grams: ``bitsPerGram`` each, at least
  /// 4 KiB, at most `maxBits`; `nil` when that leaves fewer than ``fewestBitsPerGram`` each.
  static func wordCount(forGrams grams: Int, maxBits: Int = maxBits) -> Int? {
    let bits = min(maxBits, max(1 << 15, grams * bitsPerGram))
    return bits < grams * fewestBitsPerGram ? nil : (bits + 63) / 64
  }

  /// How many q-grams of a literal of `length` bytes the filter holds.
  static func gramCount(length: Int) -> Int {
    length < 8 ? 0 : (length - 8) / gramStride + ((length - 8) % gramStride == 0 ? 1 : 2)
  }

  /// The word (of `wordCount`) and the five bits of a filter-folded q-gram: the top half of
  /// one multiplicative hash scaled to the word count, and one of the ``patterns``, picked by the
  /// top bits of another.
  @inline(__always)
  private static func slot(
    _ gram: UInt64, wordCount: UInt64, patterns: UnsafeBufferPointer<UInt64>
  ) -> (word: Int, bits: UInt64) {
    let hash = gram &* ByteFold.hashMultiplier
    let second = gram &* 0xD6E8_FEB8_6659_FD93
    return (
      Int(truncatingIfNeeded: ((hash &>> 32) &* wordCount) &>> 32),
      patterns[Int(truncatingIfNeeded: second &>> 54)]
    )
  }

  /// The bits a q-gram sets in its word: 1,024 words of five distinct bits each (8 KiB, which
  /// stays in the cache), one load instead of five shifts per probe. Drawn by SplitMix64 from a
  /// fixed seed, so every run and every build has the same.
  static let patterns: [UInt64] = {
    var state: UInt64 = 0x4A75_6E63_7469_6F6E
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed &>> 31)
    }
    return (0..<1024).map { _ in
      var bits: UInt64 = 0
      while bits.nonzeroBitCount < 5 { bits |= 1 &<< (next() &>> 58) }
      return bits
    }
  }()

  /// Whether the bytes before a cut and after it may hold a cut literal: `left` is the 8 bytes
  /// ending at the cut (little-endian), of which the last `leftCount` are the line's; `right`
  /// the 8 bytes starting there, of which the first `rightCount` are the continuation's.
  @inline(__always)
  func mayJoin(left: UInt64, leftCount: Int, right: UInt64, rightCount: Int) -> Bool {
    guard let words else { return true }
    // The q-gram starting `before` bytes before the cut, for every `before` both sides can
    // fill: all seven are probed without branching, so their loads overlap.
    var held = 0
    patterns.withUnsafeBufferPointer { patterns in
      for before in 1...7 {
        let gram =
          left &>> UInt64(truncatingIfNeeded: 64 - 8 * before) | right
          &<< UInt64(truncatingIfNeeded: 8 * before)
        let (word, bits) = Self.slot(gram | ByteFold.filterFold, wordCount: wordCount, patterns: patterns)
        held |= (~words[word] & bits == 0 ? 1 : 0) &<< before
      }
    }
    let lowest = 8 - min(7, max(1, rightCount))
    let highest = min(7, max(0, leftCount))
    guard lowest <= highest else { return false }
    return held & ((2 &<< highest) - (1 &<< lowest)) != 0
  }

  /// The bits being set while a canary set compiles: one bitset per worker, so that workers
  /// never write the same memory, merged into the filter when the set is done.
  struct Builder: @unchecked Sendable {
    private let bitsets: [UnsafeMutablePointer<UInt64>]
    private let wordCount: Int

    /// Whether it holds no bitset: nothing is inserted, and its filter passes every junction.
    var isEmpty: Bool { bitsets.isEmpty }

    /// Bitsets for `workers` workers of a set of about `estimatedGrams` q-grams; none when the
    /// set is too large for a useful filter of at most `maxBits`.
    init(estimatedGrams: Int, workers: Int, maxBits: Int = JunctionFilter.maxBits) {
      guard let wordCount = JunctionFilter.wordCount(forGrams: estimatedGrams, maxBits: maxBits) else {
        bitsets = []
        self.wordCount = 0
        return
      }
      self.wordCount = wordCount
      bitsets = (0..<workers).map { _ in
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount)
        words.initialize(repeating: 0, count: wordCount)
        return words
      }
    }

    /// Sets the bits of the held q-grams of `length` bytes at `literal`, in `worker`'s bitset.
    func insertGrams(of literal: UnsafePointer<UInt8>, length: Int, worker: Int) {
      guard !bitsets.isEmpty, length >= 8 else { return }
      let words = bitsets[worker]
      let last = length - 8
      var offset = 0
      while true {
        let gram = CompiledMatcher.foldedGram(at: literal + offset, mask: ~0)
        let (word, bits) = JunctionFilter.patterns.withUnsafeBufferPointer {
          JunctionFilter.slot(gram, wordCount: UInt64(wordCount), patterns: $0)
        }
        words[word] |= bits
        guard offset < last else { return }
        offset = min(offset + JunctionFilter.gramStride, last)
      }
    }

    /// The filter, for a set whose shortest literal is `shortest` bytes; the bitsets are merged
    /// into it, or freed when every junction passes.
    func finish(shortest: Int) -> JunctionFilter {
      guard let first = bitsets.first, shortest >= 8 else {
        release()
        return JunctionFilter()
      }
      for other in bitsets.dropFirst() {
        for index in 0..<wordCount { first[index] |= other[index] }
        other.deallocate()
      }
      return JunctionFilter(words: first, wordCount: wordCount)
    }

    /// Frees every bitset, for a set compiled again.
    func release() {
      for words in bitsets { words.deallocate() }
    }
  }
}

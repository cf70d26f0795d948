#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The q-gram index of a canary set: two blocked Bloom filters over every indexed q-gram, and
/// the entries sorted by hash bucket, each naming the literal and offset its q-gram came from.
///
/// Flat arrays only, about 19 bytes per entry in all: 16 for the entry, 1 or 2 for the bucket
/// starts (two to four entries a bucket), 2 for the filters (8 bits per entry each).
final class GramIndex: @unchecked Sendable {
  /// One indexed q-gram: the folded q-gram itself, what it belongs to, and how to check it.
  struct Entry {
    /// The filter-folded q-gram, compared whole with the probed one.
    var gram: UInt64
    /// For a value, the canary's index; otherwise the literal's number in the whole set.
    var target: UInt32
    /// See ``EntryInfo``.
    var info: UInt32
  }

  let bitset: UnsafeMutablePointer<UInt64>
  /// A second filter over the same q-grams with an independent hash, probed on the first's hits.
  let confirmBitset: UnsafeMutablePointer<UInt64>
  let bitsetWords: Int
  let bitsetShift: UInt64
  let bucketShift: UInt64
  let bucketStarts: UnsafeMutablePointer<UInt32>
  let bucketCount: Int
  let entries: UnsafeMutablePointer<Entry>
  let entryCount: Int

  /// Takes ownership of `entries` (allocated with `malloc`, `count` of them initialized), sorts
  /// them by bucket in place and fills the filters.
  init(entries: UnsafeMutablePointer<Entry>, count: Int) {
    entryCount = count
    self.entries = entries
    // About 8 bits per q-gram in each filter: the first, probed at every step, stays within
    // half a core's L2 cache for 1,000 canaries; the second, with an independent hash, is
    // probed only on the first one's hits and turns its few percent of false hits into a
    // fraction of a percent before the index is touched.
    let bitsetBits = Self.log2Ceiling(max(count * 8, 1 << 16)).clamped(16, 26)
    bitsetWords = 1 << (bitsetBits - 6)
    bitsetShift = UInt64(64 - (bitsetBits - 6))
    bitset = Self.allocateFilter(words: bitsetWords)
    confirmBitset = Self.allocateFilter(words: bitsetWords)
    // Two to four entries a bucket: a bucket is read only on both filters' hits, and at 100,000
    // canaries one entry a bucket would cost 8 MB more.
    let bucketBits = (Self.log2Ceiling(max(count, 1)) - 2).clamped(4, 30)
    bucketCount = 1 << bucketBits
    bucketShift = UInt64(64 - bucketBits)
    bucketStarts = .allocate(capacity: bucketCount + 1)
    bucketStarts.initialize(repeating: 0, count: bucketCount + 1)
    // The filters and the bucket counts are filled apart, on two threads for a large set.
    let fill = IndexFill(
      entries: entries, count: count, bitset: bitset, confirmBitset: confirmBitset, bitsetShift: bitsetShift,
      bucketStarts: bucketStarts, bucketShift: bucketShift)
    if count >= Self.entriesWorthAThread {
      DedicatedThreads.concurrentPerform(iterations: 2) { $0 == 0 ? fill.fillFilters() : fill.countBuckets() }
    } else {
      fill.fillFilters()
      fill.countBuckets()
    }
    for bucket in 0..<bucketCount { bucketStarts[bucket + 1] += bucketStarts[bucket] }
    sortByBucket()
  }

  /// The fewest entries worth a second thread for filling and sorting the index.
  static let entriesWorthAThread = 1 << 18

  deinit {
    free(bitset)
    free(confirmBitset)
    bucketStarts.deallocate()
    free(entries)
  }

  /// The bucket of `gram`.
  @inline(__always)
  func bucket(of gram: UInt64) -> Int { Int((gram &* ByteFold.hashMultiplier) >> bucketShift) }

  /// A filter of `words` zero words, allocated with `malloc` (freed with `free`).
  ///
  /// A filter of several megabytes, as a large set's is, is probed at a random word every few
  /// bytes of text: on Linux it asks for huge pages, so that those probes do not also miss the
  /// processor's address translation cache at nearly every one.
  private static func allocateFilter(words: Int) -> UnsafeMutablePointer<UInt64> {
    let bytes = words * MemoryLayout<UInt64>.stride
    #if os(Linux)
      let hugePage = 2 << 20
      var memory: UnsafeMutableRawPointer? = nil
      if bytes >= hugePage, posix_memalign(&memory, hugePage, bytes) == 0, let memory {
        _ = madvise(memory, bytes, Int32(MADV_HUGEPAGE))  // advice only: without it, small pages
        memset(memory, 0, bytes)
        return memory.bindMemory(to: UInt64.self, capacity: words)
      }
    #endif
    guard let memory = calloc(words, MemoryLayout<UInt64>.stride) else {
      fatalError("cannot allocate \(bytes) bytes for the index's filters")
    }
    return memory.bindMemory(to: UInt64.self, capacity: words)
  }

  /// Bytes the index keeps in memory.
  var memoryFootprint: Int {
    2 * bitsetWords * 8 + (bucketCount + 1) * 4 + entryCount * MemoryLayout<Entry>.stride
  }

  /// Permutes the entries in place so each bucket's entries are contiguous, with no second copy
  /// of the entries: first by the bucket's top bits into at most 256 groups, then each group
  /// (small enough for the cache) by bucket.
  private func sortByBucket() {
    let groupBits = min(8, bucketShiftBits)
    let groupShift = bucketShiftBits - groupBits
    let groupCount = 1 << groupBits
    // Where each group's entries start: the start of its first bucket.
    var groupStarts = (0...groupCount).map { Int(bucketStarts[min($0 << groupShift, bucketCount)]) }
    groupStarts[groupCount] = entryCount
    permute(from: 0, to: entryCount, starts: groupStarts) { self.bucket(of: $0.gram) >> groupShift }
    // The groups are disjoint: a large index sorts its two halves (by entries) on two threads.
    let groupBounds = groupStarts
    let half = groupBounds.firstIndex { $0 >= entryCount / 2 } ?? groupCount
    let halves = entryCount >= Self.entriesWorthAThread ? [0..<half, half..<groupCount] : [0..<groupCount]
    DedicatedThreads.concurrentPerform(iterations: halves.count) { part in
      for group in halves[part] where groupBounds[group + 1] - groupBounds[group] > 1 {
        let first = group << groupShift
        let starts = (0...(1 << groupShift)).map { Int(self.bucketStarts[first + $0]) }
        self.permute(from: groupBounds[group], to: groupBounds[group + 1], starts: starts) {
          self.bucket(of: $0.gram) - first
        }
      }
    }
  }

  /// The bits of a bucket number.
  private var bucketShiftBits: Int { 64 - Int(bucketShift) }

  /// American flag sort of `entries[from..<to]` into the bins `key` names, bin `b` starting at
  /// `starts[b]` (with `starts.last == to`): each entry is moved straight to the next free slot
  /// of its bin.
  private func permute(from: Int, to: Int, starts: [Int], key: (Entry) -> Int) {
    var next = starts
    for bin in 0..<(starts.count - 1) {
      let end = starts[bin + 1]
      var index = next[bin]
      while index < end {
        var entry = entries[index]
        var home = key(entry)
        while home != bin {
          let slot = next[home]
          next[home] += 1
          swap(&entry, &entries[slot])
          home = key(entry)
        }
        entries[index] = entry
        index += 1
      }
      next[bin] = end
    }
  }

  /// The two bits a q-gram's hash sets in its filter word: the 6-bit fields at bits 32–37 and
  /// 38–43, below the at most 20 top bits that choose the word. Fixed positions keep the probe
  /// loop to one variable shift (the word index), which matters at one probe every few bytes.
  @inline(__always)
  static func filterBits(_ hash: UInt64) -> UInt64 {
    (1 &<< ((hash &>> 32) & 63)) | (1 &<< ((hash &>> 38) & 63))
  }

  static func log2Ceiling(_ value: Int) -> Int {
    var bits = 0
    while (1 << bits) < value { bits += 1 }
    return bits
  }
}

/// The two passes over a new index's entries that fill it: the filters, and the bucket counts.
private struct IndexFill: @unchecked Sendable {
  let entries: UnsafeMutablePointer<GramIndex.Entry>
  let count: Int
  let bitset: UnsafeMutablePointer<UInt64>
  let confirmBitset: UnsafeMutablePointer<UInt64>
  let bitsetShift: UInt64
  let bucketStarts: UnsafeMutablePointer<UInt32>
  let bucketShift: UInt64

  /// Sets each entry's bits in both filters.
  func fillFilters() {
    for index in 0..<count {
      let gram = entries[index].gram
      let hash = gram &* ByteFold.hashMultiplier
      bitset[Int(hash >> bitsetShift)] |= GramIndex.filterBits(hash)
      let second = ByteFold.secondHash(gram)
      confirmBitset[Int(second >> bitsetShift)] |= GramIndex.filterBits(second)
    }
  }

  /// Counts each bucket's entries into the slot after the bucket's own.
  func countBuckets() {
    for index in 0..<count {
      bucketStarts[Int((entries[index].gram &* ByteFold.hashMultiplier) >> bucketShift) + 1] += 1
    }
  }
}

/// What an index entry's `info` word holds.
///
/// For a value: the top bit set and the offset of the q-gram in the value. For any other
/// literal: the window number of the q-gram's offset (see ``IndexLayout``) and a 16-bit check
/// of a second q-gram of the literal, up to 511 bytes away, so that q-grams many canaries share
/// (the start of every JWT, a common prefix in UTF-16 or hex) are told apart without rebuilding
/// each canary's literals.
enum EntryInfo {
  static let valueFlag: UInt32 = 1 << 31
  /// The farthest the checked q-gram may be from the indexed one.
  static let maximumDistance = 511

  static func value(offset: Int) -> UInt32 { valueFlag | UInt32(offset) }

  /// A literal's entry; a `distance` of 0 means no check (the literal has no other q-gram).
  static func literal(window: Int, checkDistance: Int, check: UInt16) -> UInt32 {
    UInt32(window) | UInt32(checkDistance + 512) << 5 | UInt32(check) << 15
  }

  static func isValue(_ info: UInt32) -> Bool { info & valueFlag != 0 }
  static func offset(_ info: UInt32) -> Int { Int(info & ~valueFlag) }
  static func window(_ info: UInt32) -> Int { Int(info & 0x1F) }
  /// The distance from the indexed q-gram to the checked one, or `nil` for no check.
  static func checkDistance(_ info: UInt32) -> Int? {
    let distance = Int(info >> 5 & 0x3FF) - 512
    return distance == 0 ? nil : distance
  }
  static func check(_ info: UInt32) -> UInt16 { UInt16(truncatingIfNeeded: info >> 15) }

  /// The 16-bit check of a filter-folded q-gram.
  @inline(__always)
  static func checkHash(_ gram: UInt64) -> UInt16 {
    UInt16(truncatingIfNeeded: ((gram ^ (gram >> 33)) &* 0xFF51_AFD7_ED55_8CCD) >> 48)
  }

  /// Where a literal of `length` bytes indexed at `offset` is checked, relative to `offset`:
  /// far from the ends many canaries share (a prefix such as `cnry`, the JWT header, an
  /// `@example.invalid` suffix), at the literal's middle for the end windows of a literal line
  /// breaks may split and at its first quarter for a middle window; 0 when the literal has no
  /// other q-gram.
  static func checkDistance(length: Int, offset: Int, gramLength: Int, wrapsLines: Bool) -> Int {
    let last = length - gramLength
    let aim = wrapsLines ? last / 2 : last / 4
    var distance = aim - offset
    if distance == 0 { distance = last - offset >= offset ? last - offset : -offset }
    return distance.clamped(-maximumDistance, maximumDistance)
  }
}

extension Int {
  func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}

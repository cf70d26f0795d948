/// The search structures for one canary set: every literal, a bitset of the hashed q-grams of
/// every literal at every offset, and an index from q-gram to (literal, offset).
///
/// The text is probed at one q-gram every `step` bytes, where `step = shortest − q + 1`, so
/// every occurrence of a literal contains at least one probed q-gram. A probe whose bit is set
/// is looked up in the index and each (literal, offset) it names is verified byte by byte.
/// Built once and only read afterwards, so it is shared between threads.
final class CompiledMatcher: @unchecked Sendable {
  /// What one index target stands for.
  struct Target {
    var canary: Int32
    var encoding: ScanEncoding
    /// `true` for a canary's value, which is verified case-insensitively and may yield raw,
    /// case-insensitive or fragment matches; `false` for an exact literal.
    var isValue: Bool
    /// Whether the stored bytes are case-folded and verified against folded text.
    var foldsCase: Bool
    var start: Int
    var length: Int
    /// Where this value's ``DistinctiveBytes`` running counts start in `distinctiveCounts`.
    var countsStart: Int = 0
  }

  /// One (target, offset) pair reachable from a q-gram.
  struct Entry {
    var fingerprint: UInt32
    var target: UInt32
    var offset: UInt32
  }

  let targets: [Target]
  let maxLength: Int
  let minLength: Int
  let gramLength: Int
  let step: Int
  let minFragment: Int?
  let reportsRaw: Bool
  let reportsCaseInsensitive: Bool

  /// Literal bytes of every target, back to back; value targets are stored case-folded.
  let bytes: UnsafeMutablePointer<UInt8>
  let byteCount: Int
  let bitset: UnsafeMutablePointer<UInt64>
  let bitsetWords: Int
  let bitsetShift: UInt64
  let bucketShift: UInt64
  let bucketStarts: UnsafeMutablePointer<UInt32>
  let bucketCount: Int
  let entries: UnsafeMutablePointer<Entry>
  let entryCount: Int
  let gramMask: UInt64
  /// Running counts of identifying bytes for every value target, back to back.
  let distinctiveCounts: [Int32]

  init(canaries: [Canary], options: ScanOptions) {
    let encodings = options.encodings
    minFragment = options.effectiveMinFragment
    reportsRaw = encodings.contains(.raw)
    reportsCaseInsensitive = encodings.contains(.caseInsensitive)
    var targets: [Target] = []
    var storage: [UInt8] = []
    var distinctiveCounts: [Int32] = []
    for (index, canary) in canaries.enumerated() where !canary.value.isEmpty {
      var foldedLiterals: [[UInt8]] = []
      for pattern in PatternEncoder.patterns(for: canary, encodings: encodings) {
        let isValue = pattern.encoding == .raw
        if isValue && !reportsRaw && !reportsCaseInsensitive && minFragment == nil { continue }
        // A value, and a literal whose letters are hex digits, is stored and verified folded
        // (so `%2f` and `%2F` mixed in one escape both match); a value is then stored as written
        // too, for the exact-case check.
        let foldsCase = isValue || Self.hexCaseInsensitive.contains(pattern.encoding)
        let stored = foldsCase ? pattern.bytes.map { ByteFold.table[Int($0)] } : pattern.bytes
        if foldsCase && !isValue {
          if foldedLiterals.contains(stored) { continue }
          foldedLiterals.append(stored)
        }
        targets.append(
          Target(
            canary: Int32(index), encoding: pattern.encoding, isValue: isValue, foldsCase: foldsCase,
            start: storage.count, length: stored.count, countsStart: distinctiveCounts.count))
        if isValue {
          distinctiveCounts += DistinctiveBytes.prefixCounts(of: pattern.bytes, shape: canary.shape)
        }
        storage += stored
        if isValue { storage += pattern.bytes }
      }
    }
    self.targets = targets
    self.distinctiveCounts = distinctiveCounts
    let lengths = targets.map(\.length)
    maxLength = max(lengths.max() ?? 1, 1)
    var shortest = max(lengths.min() ?? 8, 1)
    if let minFragment, targets.contains(where: \.isValue) { shortest = min(shortest, minFragment) }
    minLength = shortest
    let gramLength = min(8, shortest)
    self.gramLength = gramLength
    step = shortest - gramLength + 1
    let gramMask: UInt64 = gramLength == 8 ? ~0 : (UInt64(1) << UInt64(8 * gramLength)) - 1
    self.gramMask = gramMask

    byteCount = storage.count
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: storage.count + 8)
    bytes.initialize(repeating: 0, count: storage.count + 8)
    storage.withUnsafeBufferPointer { bytes.update(from: $0.baseAddress!, count: storage.count) }
    self.bytes = bytes

    // Two passes over every (target, offset): count per bucket, then place.
    // Every occurrence of a literal holds exactly one probe among any `step` consecutive offsets,
    // so indexing the first `step` offsets is enough; fragments can start anywhere in a value,
    // so with fragments on a value is indexed at every offset.
    let step = self.step
    let fragments = minFragment != nil
    func indexedOffsets(_ target: Target) -> Int {
      let all = target.length - gramLength + 1
      return target.isValue && fragments ? all : min(all, step)
    }
    var gramCount = 0
    for target in targets where target.length >= gramLength { gramCount += indexedOffsets(target) }
    entryCount = gramCount
    // A blocked Bloom filter: each q-gram picks one 64-bit word and sets two bits in it.
    let bitsetBits = Self.log2Ceiling(max(gramCount * 16, 1 << 16)).clamped(16, 25)
    let bitsetShift = UInt64(64 - (bitsetBits - 6))
    let bitset = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << (bitsetBits - 6))
    bitset.initialize(repeating: 0, count: 1 << (bitsetBits - 6))
    let bucketBits = (Self.log2Ceiling(max(gramCount, 1)) - 1).clamped(4, 24)  // about two entries a bucket
    let bucketCount = 1 << bucketBits
    let bucketShift = UInt64(64 - bucketBits)
    let bucketStarts = UnsafeMutablePointer<UInt32>.allocate(capacity: bucketCount + 1)
    bucketStarts.initialize(repeating: 0, count: bucketCount + 1)
    let entries = UnsafeMutablePointer<Entry>.allocate(capacity: max(gramCount, 1))
    for target in targets where target.length >= gramLength {
      for offset in 0..<indexedOffsets(target) {
        let hash =
          Self.foldedGram(at: bytes + target.start + offset, mask: gramMask) &* ByteFold.hashMultiplier
        bitset[Int(hash >> bitsetShift)] |= Self.filterBits(hash, shift: bitsetShift)
        bucketStarts[Int(hash >> bucketShift) + 1] += 1
      }
    }
    for bucket in 0..<bucketCount { bucketStarts[bucket + 1] += bucketStarts[bucket] }
    let fill = UnsafeMutablePointer<UInt32>.allocate(capacity: bucketCount)
    defer { fill.deallocate() }
    fill.update(from: bucketStarts, count: bucketCount)
    for (index, target) in targets.enumerated() where target.length >= gramLength {
      for offset in 0..<indexedOffsets(target) {
        let gram = Self.foldedGram(at: bytes + target.start + offset, mask: gramMask)
        let bucket = Int((gram &* ByteFold.hashMultiplier) >> bucketShift)
        let slot = Int(fill[bucket])
        fill[bucket] += 1
        (entries + slot).initialize(
          to: Entry(fingerprint: ByteFold.fingerprint(gram), target: UInt32(index), offset: UInt32(offset)))
      }
    }
    self.bitset = bitset
    self.bitsetWords = 1 << (bitsetBits - 6)
    self.bitsetShift = bitsetShift
    self.bucketCount = bucketCount
    self.bucketShift = bucketShift
    self.bucketStarts = bucketStarts
    self.entries = entries
  }

  deinit {
    bytes.deallocate()
    bitset.deallocate()
    bucketStarts.deallocate()
    entries.deallocate()
  }

  /// Encodings whose literals differ only in the case of hex digits (`%2F`/`%2f`, `A0`/`a0`):
  /// matched in any case, so mixed-case escapes are found too.
  static let hexCaseInsensitive: Set<ScanEncoding> = [
    .percent, .form, .doublePercent, .hex, .sha256Hex, .sha1Hex, .md5Hex,
  ]

  /// Bytes the matcher keeps in memory beyond the buffer itself.
  var memoryFootprint: Int {
    byteCount + bitsetWords * 8 + (bucketCount + 1) * 4 + entryCount * MemoryLayout<Entry>.stride
  }

  /// The two bits a q-gram's hash sets in its filter word: 6-bit fields just below the bits
  /// that choose the word (`shift` = 64 − word-index bits).
  @inline(__always)
  static func filterBits(_ hash: UInt64, shift: UInt64) -> UInt64 {
    (1 &<< ((hash &>> (shift &- 6)) & 63)) | (1 &<< ((hash &>> (shift &- 12)) & 63))
  }

  /// The filter-folded q-gram at `pointer` (8 readable bytes required).
  @inline(__always)
  static func foldedGram(at pointer: UnsafePointer<UInt8>, mask: UInt64) -> UInt64 {
    (UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)) | ByteFold.filterFold)
      & mask
  }

  static func log2Ceiling(_ value: Int) -> Int {
    var bits = 0
    while (1 << bits) < value { bits += 1 }
    return bits
  }
}

extension Int {
  fileprivate func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}

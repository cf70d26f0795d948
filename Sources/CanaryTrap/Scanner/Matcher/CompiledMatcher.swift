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
    /// How a hit of the target is verified.
    enum Kind {
      /// A canary's value, verified case-insensitively: raw, case-insensitive or fragment matches.
      case value
      /// An exact literal (hex digits folded when ``Target/foldsCase``).
      case literal
      /// An escape-free run of the canary in a wrapper, confirmed by re-encoding around the hit
      /// (the payload indexes ``CompiledMatcher/anchors``).
      case anchor(Int32)
    }

    var canary: Int32
    /// The id of the chain a match names, in ``CompiledMatcher/chains``.
    var chain: UInt16
    var kind: Kind
    /// Whether the stored bytes are case-folded and verified against folded text.
    var foldsCase: Bool
    /// Whether the literal may be broken by line breaks (`\n` or `\r\n`), as MIME and PEM wrap
    /// base64; such a target is indexed at its start and at its end.
    var wrapsLines: Bool
    var start: Int
    var length: Int
    /// Where this value's ``DistinctiveBytes`` running counts start in `distinctiveCounts`.
    var countsStart: Int = 0
    /// The longest span a match of this target covers: its length, plus line breaks, or for an
    /// anchor the whole encoded form around it.
    var reach = 0

    var isValue: Bool { if case .value = kind { true } else { false } }
  }

  /// One (target, offset) pair reachable from a q-gram.
  struct Entry {
    var fingerprint: UInt32
    var target: UInt32
    var offset: UInt32
  }

  let targets: [Target]
  /// Every chain a match can name, by id (single encodings first, in `ScanEncoding.allCases` order).
  let chains: [EncodingChain]
  /// What each anchor target needs for confirmation.
  let anchors: [AnchorInfo]
  let maxLength: Int
  let minLength: Int
  let gramLength: Int
  let step: Int
  let minFragment: Int?
  let reportsRaw: Bool
  let reportsCaseInsensitive: Bool
  /// Whether UTF-16 little-endian is searched (a big-endian match then defers to it).
  let reportsUTF16LE: Bool

  /// Literal bytes of every target, back to back; value targets are stored case-folded.
  let bytes: UnsafeMutablePointer<UInt8>
  let byteCount: Int
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
  let gramMask: UInt64
  /// Running counts of identifying bytes for every value target, back to back.
  let distinctiveCounts: [Int32]

  init(canaries: [Canary], options: ScanOptions) {
    let encodings = options.encodings
    minFragment = options.effectiveMinFragment
    reportsRaw = encodings.contains(.raw)
    reportsCaseInsensitive = encodings.contains(.caseInsensitive)
    reportsUTF16LE = encodings.contains(.utf16le)
    let laidOut = MatcherTargets(
      canaries: canaries, options: options,
      keepsValues: reportsRaw || reportsCaseInsensitive || minFragment != nil)
    let targets = laidOut.targets
    let storage = laidOut.storage
    chains = laidOut.chains
    anchors = laidOut.anchors
    self.distinctiveCounts = laidOut.distinctiveCounts
    self.targets = targets
    let lengths = targets.map(\.length)
    maxLength = max(targets.map { max($0.length, $0.reach) }.max() ?? 1, 1)
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
    // A target that line breaks may split is indexed at its first and its last `shortest`
    // bytes: it is found when either of them is unbroken (with fragments on, `shortest` is 16,
    // so one break anywhere in a literal of 32 bytes or more).
    func indexedOffsets(_ target: Target) -> [Int] {
      let all = target.length - gramLength + 1
      if target.isValue && fragments { return Array(0..<all) }
      let head = Array(0..<min(all, step))
      guard target.wrapsLines, target.length - shortest > 0 else { return head }
      let tail = target.length - shortest
      return head + (tail..<min(all, tail + step)).filter { $0 >= head.count }
    }
    let offsets = targets.map { $0.length >= gramLength ? indexedOffsets($0) : [] }
    let gramCount = offsets.reduce(0) { $0 + $1.count }
    entryCount = gramCount
    // A blocked Bloom filter: each q-gram picks one 64-bit word and sets two bits in it.
    // About 8 bits per q-gram in each of two filters: the first, probed at every step, stays
    // within half a core's L2 cache for 1,000 canaries (some 450,000 q-grams); the second, with
    // an independent hash, is probed only on the first one's hits and turns its few percent of
    // false hits into a fraction of a percent before the index is touched.
    let bitsetBits = Self.log2Ceiling(max(gramCount * 8, 1 << 16)).clamped(16, 25)
    let bitsetShift = UInt64(64 - (bitsetBits - 6))
    let bitset = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << (bitsetBits - 6))
    bitset.initialize(repeating: 0, count: 1 << (bitsetBits - 6))
    let confirmBitset = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << (bitsetBits - 6))
    confirmBitset.initialize(repeating: 0, count: 1 << (bitsetBits - 6))
    let bucketBits = (Self.log2Ceiling(max(gramCount, 1)) - 1).clamped(4, 24)  // about two entries a bucket
    let bucketCount = 1 << bucketBits
    let bucketShift = UInt64(64 - bucketBits)
    let bucketStarts = UnsafeMutablePointer<UInt32>.allocate(capacity: bucketCount + 1)
    bucketStarts.initialize(repeating: 0, count: bucketCount + 1)
    let entries = UnsafeMutablePointer<Entry>.allocate(capacity: max(gramCount, 1))
    for (index, target) in targets.enumerated() {
      for offset in offsets[index] {
        let gram = Self.foldedGram(at: bytes + target.start + offset, mask: gramMask)
        let hash = gram &* ByteFold.hashMultiplier
        bitset[Int(hash >> bitsetShift)] |= Self.filterBits(hash)
        let second = ByteFold.secondHash(gram)
        confirmBitset[Int(second >> bitsetShift)] |= Self.filterBits(second)
        bucketStarts[Int(hash >> bucketShift) + 1] += 1
      }
    }
    for bucket in 0..<bucketCount { bucketStarts[bucket + 1] += bucketStarts[bucket] }
    let fill = UnsafeMutablePointer<UInt32>.allocate(capacity: bucketCount)
    defer { fill.deallocate() }
    fill.update(from: bucketStarts, count: bucketCount)
    for (index, target) in targets.enumerated() {
      for offset in offsets[index] {
        let gram = Self.foldedGram(at: bytes + target.start + offset, mask: gramMask)
        let bucket = Int((gram &* ByteFold.hashMultiplier) >> bucketShift)
        let slot = Int(fill[bucket])
        fill[bucket] += 1
        (entries + slot).initialize(
          to: Entry(fingerprint: ByteFold.fingerprint(gram), target: UInt32(index), offset: UInt32(offset)))
      }
    }
    self.bitset = bitset
    self.confirmBitset = confirmBitset
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
    confirmBitset.deallocate()
    bucketStarts.deallocate()
    entries.deallocate()
  }

  /// Encodings whose literals differ only in the case of hex digits (`%2F`/`%2f`, `A0`/`a0`):
  /// matched in any case, so mixed-case escapes are found too.
  /// Base32 letters are matched in any case too (some encoders write it in lower case).
  static let caseInsensitive: Set<ScanEncoding> = [
    .percent, .form, .doublePercent, .hex, .base32, .sha512Hex, .sha384Hex, .sha256Hex, .sha1Hex, .md5Hex,
  ]

  /// Bytes the matcher keeps in memory beyond the buffer itself.
  var memoryFootprint: Int {
    byteCount + 2 * bitsetWords * 8 + (bucketCount + 1) * 4 + entryCount * MemoryLayout<Entry>.stride
  }

  /// The two bits a q-gram's hash sets in its filter word: the 6-bit fields at bits 32–37 and
  /// 38–43, below the at most 19 top bits that choose the word. Fixed positions keep the probe
  /// loop to one variable shift (the word index), which matters at one probe every few bytes.
  @inline(__always)
  static func filterBits(_ hash: UInt64) -> UInt64 {
    (1 &<< ((hash &>> 32) & 63)) | (1 &<< ((hash &>> 38) & 63))
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

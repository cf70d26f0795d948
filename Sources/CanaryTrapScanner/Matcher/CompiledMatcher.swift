#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The search structures for one canary set: a q-gram index of every literal, every value laid
/// out flat, and what rebuilds a canary's literals when one of its q-grams is found.
///
/// The text is probed at one q-gram every `step` bytes and each literal is indexed at a window
/// of `step` offsets (see ``IndexLayout``), so every occurrence of a literal holds a probed,
/// indexed q-gram. A probe that passes both filters is looked up in the index; a value's entry
/// is verified against the flat values, any other literal's entry first against a check of a
/// second q-gram, then byte by byte against the canary's literals rebuilt from its value
/// (``CanaryTargets``). The literal bytes of the whole set, some 3.5 KB per canary, are never
/// held at once: memory grows by about 1.2 KB per canary, some 19 bytes per index entry.
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
      /// (the payload indexes the anchors of the canary's ``MatcherTargets``).
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

  /// Every chain a match can name, by id (single encodings first, in `ScanEncoding.allCases` order).
  let chains: [EncodingChain]
  let maxLength: Int
  let minLength: Int
  let layout: IndexLayout
  let minFragment: Int?
  let reportsRaw: Bool
  let reportsCaseInsensitive: Bool
  /// Whether UTF-16 little-endian is searched (a big-endian match then defers to it).
  let reportsUTF16LE: Bool

  let index: GramIndex
  /// Which line junctions may hold a literal cut across two lines.
  let junctionFilter: JunctionFilter
  /// Which line junctions whose continuation starts with a space or a tab may hold a literal
  /// cut there: the filter of the literals holding one.
  let blankJunctionFilter: JunctionFilter
  /// Whether a literal may hold a space or a tab (``mayHoldBlanks(_:)``). Without one, a match
  /// across a line junction never starts its continuation with a blank, so the junction is
  /// searched once.
  let literalsMayHoldBlanks: Bool
  let values: ValueStore
  /// Per canary, the number of its first literal in the set; one more entry holds the total.
  let targetStarts: [UInt32]

  /// What rebuilds a canary's literals: the canaries, the encodings, and the chain table.
  private let canaries: [Canary]
  private let encodings: Set<ScanEncoding>
  private let keepsValues: Bool
  private let chainTable: MatcherTargets.ChainTable

  /// Compiles `canaries`; `entryBudget` sizes the step (see ``IndexLayout``).
  init(canaries: [Canary], options: ScanOptions, entryBudget: Int = IndexLayout.entryBudget) {
    let encodings = options.encodings
    let minFragment = options.effectiveMinFragment
    self.minFragment = minFragment
    reportsRaw = encodings.contains(.raw)
    reportsCaseInsensitive = encodings.contains(.caseInsensitive)
    reportsUTF16LE = encodings.contains(.utf16le)
    let keepsValues = reportsRaw || reportsCaseInsensitive || minFragment != nil
    self.canaries = canaries
    self.encodings = encodings
    self.keepsValues = keepsValues
    // Compiled assuming 8-byte q-grams and the budget's step; compiled again in the rare set
    // whose shortest literal is too short for them.
    let assumed = IndexLayout(
      gramLength: 8,
      step: IndexLayout.step(canaryCount: canaries.count, minFragment: minFragment, budget: entryBudget),
      minFragment: minFragment)
    var compiled = Compilation(
      canaries: canaries, encodings: encodings, keepsValues: keepsValues, layout: assumed)
    var shortest = compiled.shortest == .max ? 8 : max(compiled.shortest, 1)
    if let minFragment, compiled.hasValues { shortest = min(shortest, minFragment) }
    let gramLength = min(8, shortest)
    let fitting = IndexLayout(
      gramLength: gramLength, step: min(assumed.step, shortest - gramLength + 1), minFragment: minFragment)
    if fitting != assumed {
      compiled.releaseEntries()
      compiled = Compilation(
        canaries: canaries, encodings: encodings, keepsValues: keepsValues, layout: fitting)
    }
    layout = fitting
    minLength = shortest
    maxLength = max(compiled.maxLength, 1)
    chainTable = compiled.chains
    chains = compiled.chains.chains
    targetStarts = compiled.targetStarts
    values = ValueStore(compiled.values)
    compiled.values = ValueStore.Builder()  // its copy is made: freed before the index is built
    index = GramIndex(entries: compiled.entries, count: compiled.entryCount)
    junctionFilter = compiled.junctionBits.finish(shortest: shortest)
    blankJunctionFilter = compiled.blankJunctionBits.finish(shortest: shortest)
    literalsMayHoldBlanks = canaries.contains(where: Self.mayHoldBlanks)
  }

  /// Whether a canary's literals may hold a space or a tab: only when its value holds one, or a
  /// byte beyond ASCII (whose UTF-16 forms may hold `0x20` or `0x09`).
  static func mayHoldBlanks(_ canary: Canary) -> Bool {
    canary.value.utf8.contains { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 }
  }

  /// Encodings whose literals differ only in the case of hex digits (`%2F`/`%2f`, `A0`/`a0`):
  /// matched in any case, so mixed-case escapes are found too.
  /// Base32 letters are matched in any case too (some encoders write it in lower case).
  static let caseInsensitive: Set<ScanEncoding> = [
    .percent, .form, .doublePercent, .hex, .base32, .sha512Hex, .sha384Hex, .sha256Hex, .sha1Hex, .md5Hex,
  ]

  /// Whether `encoding` is in ``caseInsensitive``, without hashing it.
  static func foldsCase(_ encoding: ScanEncoding) -> Bool { foldingByOrdinal[encoding.ordinal] }

  /// Whether a literal written in `encoding` is compared in any letter case: one of a single
  /// encoding in ``caseInsensitive``; a composed chain keeps its inner form's case.
  static func literalFoldsCase(_ encoding: ScanEncoding, composed: Bool) -> Bool {
    !composed && foldsCase(encoding)
  }

  private static let foldingByOrdinal = ScanEncoding.allCases.map { caseInsensitive.contains($0) }

  /// Bytes the matcher keeps in memory beyond the buffer itself and the canaries.
  var memoryFootprint: Int {
    index.memoryFootprint + values.memoryFootprint + targetStarts.count * 4 + junctionFilter.bitCount / 8
      + blankJunctionFilter.bitCount / 8
  }

  /// The literals of canary `canary`, rebuilt from its value exactly as they were numbered when
  /// the set was compiled.
  func rebuildTargets(of canary: Int) -> CanaryTargets {
    var laidOut = MatcherTargets(chains: chainTable)
    laidOut.append(canaries[canary], index: canary, encodings: encodings, keepsValues: keepsValues)
    assert(laidOut.chains.count == chains.count, "a canary named a chain the table lacks")
    return CanaryTargets(laidOut)
  }

  /// The canary that literal number `target` belongs to.
  func canary(ofTarget target: UInt32) -> Int {
    var low = 0
    var high = targetStarts.count - 1
    while low + 1 < high {  // targetStarts[low] <= target < targetStarts[high]
      let middle = (low + high) / 2
      if targetStarts[middle] <= target { low = middle } else { high = middle }
    }
    return low
  }

  /// The filter-folded q-gram at `pointer` (8 readable bytes required).
  @inline(__always)
  static func foldedGram(at pointer: UnsafePointer<UInt8>, mask: UInt64) -> UInt64 {
    (UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)) | ByteFold.filterFold)
      & mask
  }
}

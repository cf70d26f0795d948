#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The literals of a canary set laid out for the matcher: one ``CompiledMatcher/Target`` per
/// literal, their bytes back to back, the chains they name, and what anchors need to be confirmed.
struct MatcherTargets {
  var targets: [CompiledMatcher.Target] = []
  var storage: [UInt8] = []
  var distinctiveCounts: [Int32] = []
  /// Every chain a candidate can name; the first `ScanEncoding.allCases.count` are the single
  /// encodings in `allCases` order, so a single encoding's id is its index there.
  var chains: [EncodingChain] = Self.singleChains
  var anchors: [AnchorInfo] = []
  /// The index of each chain in ``chains``, so that looking one up does not compare every chain.
  private var chainIndex: [EncodingChain: UInt16] = Self.singleChainIndex
  /// The ids of two-step chains by their steps' ordinals (`UInt16.max` for none yet): the anchors
  /// of one canary name up to a few hundred (escape, wrapper) pairs.
  private var pairIDs: [UInt16] = Self.noPairs

  private static let singleChains = ScanEncoding.allCases.map { EncodingChain($0) }
  private static let singleChainIndex = Dictionary(
    uniqueKeysWithValues: ScanEncoding.allCases.enumerated().map { (EncodingChain($1), UInt16($0)) })
  private static let noPairs = [UInt16](
    repeating: .max, count: ScanEncoding.allCases.count * ScanEncoding.allCases.count)

  /// The id of `chain` in ``chains``, added when new.
  mutating func chainID(_ chain: EncodingChain) -> UInt16 {
    let steps = chain.steps
    if steps.count == 1 { return Self.chainID(steps[0]) }
    let pair = steps.count == 2 ? steps[0].ordinal * ScanEncoding.allCases.count + steps[1].ordinal : nil
    if let pair, pairIDs[pair] != .max { return pairIDs[pair] }
    let id: UInt16
    if let index = chainIndex[chain] {
      id = index
    } else {
      chains.append(chain)
      id = UInt16(chains.count - 1)
      chainIndex[chain] = id
    }
    if let pair { pairIDs[pair] = id }
    return id
  }

  /// The id of the chain of `inner` then `outer`, added when new.
  mutating func chainID(_ inner: ScanEncoding, _ outer: ScanEncoding) -> UInt16 {
    let pair = inner.ordinal * ScanEncoding.allCases.count + outer.ordinal
    if pairIDs[pair] != .max { return pairIDs[pair] }
    return chainID(EncodingChain([inner, outer]))
  }

  /// The id of a single encoding.
  static func chainID(_ encoding: ScanEncoding) -> UInt16 {
    UInt16(encoding.ordinal)
  }

  /// No targets yet.
  init() {}

  init(canaries: [Canary], options: ScanOptions, keepsValues: Bool) {
    for (index, canary) in canaries.enumerated() {
      append(canary, index: index, encodings: options.encodings, keepsValues: keepsValues)
    }
  }

  /// Targets that name chains by the ids of `chains`, the table of a compiled set: one canary's
  /// targets rebuilt on demand then name every chain as the whole set does.
  init(chains: ChainTable) {
    self.chains = chains.chains
    chainIndex = chains.index
    pairIDs = chains.pairIDs
  }

  /// The chains named so far and their ids, to seed ``init(chains:)``.
  var chainTable: ChainTable { ChainTable(chains: chains, index: chainIndex, pairIDs: pairIDs) }

  /// Every chain a compiled set can name: the single encodings, the composed chains, and each
  /// text escape in each anchor wrapper. A set compiled without ``AnchorInfo`` starts from it,
  /// so that the canaries it rebuilds name no chain it does not know.
  static var completeChainTable: ChainTable {
    var all = MatcherTargets()
    _ = all.chainID(.base64, .base64)
    _ = all.chainID(.base64, .percent)
    for escape in PatternEncoder.textEscapes {
      for wrapper in PatternEncoder.anchorWrappers { _ = all.chainID(escape, wrapper) }
    }
    return all.chainTable
  }

  /// Every chain a compiled set names, by id.
  struct ChainTable {
    var chains: [EncodingChain]
    var index: [EncodingChain: UInt16]
    var pairIDs: [UInt16]
  }

  /// Removes every target, keeping the chain table and the arrays' capacity for the next canary.
  mutating func removeTargets() {
    targets.removeAll(keepingCapacity: true)
    storage.removeAll(keepingCapacity: true)
    distinctiveCounts.removeAll(keepingCapacity: true)
    anchors.removeAll(keepingCapacity: true)
  }

  /// Appends the targets of `canary`, the canary at `index` of the set. Without
  /// `confirmingAnchors`, as when a set is compiled, anchors get their reach but no
  /// ``AnchorInfo`` (``anchors`` stays empty): a canary found is rebuilt with them.
  mutating func append(
    _ canary: Canary, index: Int, encodings: Set<ScanEncoding>, keepsValues: Bool,
    confirmingAnchors: Bool = true
  ) {
    guard !canary.value.isEmpty else { return }
    let generated = PatternEncoder.literals(for: canary, encodings: encodings)
    var foldedLiterals: [Range<Int>] = []  // in `storage`
    var forms: [(ScanEncoding, [UInt8])]? = nil
    var anchorCount = 0
    for pattern in generated.literals {
      let isValue = pattern.inner == nil && pattern.encoding == .raw && !pattern.isAnchor
      if isValue && !keepsValues { continue }
      let encoding = pattern.encoding
      // A value, and a literal whose letters are hex digits, is stored and verified folded
      // (so `%2f` and `%2F` mixed in one escape both match); a value is then stored as written
      // too, for the exact-case check.
      let foldsCase =
        isValue || CompiledMatcher.literalFoldsCase(encoding, composed: pattern.inner != nil)
      let start = storage.count
      generated.storage.withUnsafeBufferPointer { generated in
        let bytes = UnsafeBufferPointer(rebasing: generated[pattern.start..<(pattern.start + pattern.count)])
        guard foldsCase else { return storage.append(contentsOf: bytes) }
        ByteFold.table.withUnsafeBufferPointer { fold in
          storage.append(writing: bytes.count) { folded in
            for index in bytes.indices { folded[index] = fold[Int(bytes[index])] }
          }
        }
      }
      if foldsCase && !isValue {
        let stored = start..<storage.count
        let isRepeat = storage.withUnsafeBufferPointer { storage in
          foldedLiterals.contains { earlier in
            earlier.count == stored.count
              && memcmp(storage.baseAddress! + earlier.lowerBound, storage.baseAddress! + start, stored.count)
                == 0
          }
        }
        if isRepeat {
          storage.removeSubrange(stored)
          continue
        }
        foldedLiterals.append(stored)
      }
      var kind = CompiledMatcher.Target.Kind.literal
      if isValue {
        kind = .value
      } else if pattern.isAnchor && !confirmingAnchors {
        anchorCount += 1
        kind = .anchor(Int32(anchorCount - 1))
      } else if pattern.isAnchor {
        if forms == nil { forms = PatternEncoder.forms(of: canary.bytes, escapes: generated.escapes) }
        let anchor = generated.anchor ?? []
        var info = AnchorInfo(
          wrapper: encoding, alignment: pattern.alignment, anchor: anchor, forms: forms!,
          urlAllowed: encodings.contains(.base64url), standardAllowed: encodings.contains(.base64))
        info.chainIDs = info.forms.map { form in
          info.alphabets.map { form.step == .raw ? Self.chainID($0.name) : chainID(form.step, $0.name) }
        }
        anchors.append(info)
        kind = .anchor(Int32(anchors.count - 1))
      }
      // Standard base64 is also found wrapped in lines (MIME, PEM): verified across CR/LF.
      let wrapsLines = encoding == .base64 && pattern.inner == nil
      let chain = pattern.inner.map { chainID($0, encoding) } ?? Self.chainID(encoding)
      var target = CompiledMatcher.Target(
        canary: Int32(index), chain: chain, kind: kind, foldsCase: foldsCase,
        wrapsLines: wrapsLines, start: start, length: pattern.count,
        countsStart: distinctiveCounts.count)
      if case .anchor(let id) = kind {
        target.reach =
          confirmingAnchors
          ? anchors[Int(id)].reach
          : AnchorInfo.reach(wrapper: encoding, longest: generated.longestForm(of: canary))
      }
      let length = pattern.count
      if wrapsLines { target.reach = max(target.reach, length + 2 * (length / 60 + 1)) }
      targets.append(target)
      if isValue {
        let value = generated.bytes(of: pattern)
        distinctiveCounts += DistinctiveBytes.prefixCounts(of: value, shape: canary.shape)
        storage += value
      }
    }
  }
}

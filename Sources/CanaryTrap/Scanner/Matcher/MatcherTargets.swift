/// The literals of a canary set laid out for the matcher: one ``CompiledMatcher/Target`` per
/// literal, their bytes back to back, the chains they name, and what anchors need to be confirmed.
struct MatcherTargets {
  var targets: [CompiledMatcher.Target] = []
  var storage: [UInt8] = []
  var distinctiveCounts: [Int32] = []
  /// Every chain a candidate can name; the first `ScanEncoding.allCases.count` are the single
  /// encodings in `allCases` order, so a single encoding's id is its index there.
  var chains: [EncodingChain] = ScanEncoding.allCases.map { EncodingChain($0) }
  var anchors: [AnchorInfo] = []
  /// The index of each chain in ``chains``, so that looking one up does not compare every chain.
  private var chainIndex: [EncodingChain: UInt16] = Dictionary(
    uniqueKeysWithValues: ScanEncoding.allCases.enumerated().map { (EncodingChain($1), UInt16($0)) })

  /// The id of `chain` in ``chains``, added when new.
  mutating func chainID(_ chain: EncodingChain) -> UInt16 {
    if let index = chainIndex[chain] { return index }
    chains.append(chain)
    chainIndex[chain] = UInt16(chains.count - 1)
    return UInt16(chains.count - 1)
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
  }

  /// The chains named so far and their ids, to seed ``init(chains:)``.
  var chainTable: ChainTable { ChainTable(chains: chains, index: chainIndex) }

  /// Every chain a compiled set names, by id.
  struct ChainTable {
    var chains: [EncodingChain]
    var index: [EncodingChain: UInt16]
  }

  /// Appends the targets of `canary`, the canary at `index` of the set.
  mutating func append(_ canary: Canary, index: Int, encodings: Set<ScanEncoding>, keepsValues: Bool) {
    guard !canary.value.isEmpty else { return }
    let generated = PatternEncoder.literals(for: canary, encodings: encodings)
    var foldedLiterals: [[UInt8]] = []
    var forms: [(ScanEncoding, [UInt8])]? = nil
    for pattern in generated.literals {
      let isValue = pattern.chain.steps.count == 1 && pattern.chain.outermost == .raw && !pattern.isAnchor
      if isValue && !keepsValues { continue }
      let encoding = pattern.chain.outermost
      // A value, and a literal whose letters are hex digits, is stored and verified folded
      // (so `%2f` and `%2F` mixed in one escape both match); a value is then stored as written
      // too, for the exact-case check.
      let foldsCase =
        isValue
        || pattern.chain.steps.count == 1 && CompiledMatcher.caseInsensitive.contains(encoding)
      let stored = foldsCase ? pattern.bytes.map { ByteFold.table[Int($0)] } : pattern.bytes
      if foldsCase && !isValue {
        if foldedLiterals.contains(stored) { continue }
        foldedLiterals.append(stored)
      }
      var kind = CompiledMatcher.Target.Kind.literal
      if isValue {
        kind = .value
      } else if pattern.isAnchor {
        if forms == nil { forms = PatternEncoder.forms(of: canary.bytes, escapes: generated.escapes) }
        let anchor = generated.anchor ?? []
        var info = AnchorInfo(
          wrapper: encoding, alignment: Self.alignment(of: pattern.bytes, anchor, encoding),
          anchor: anchor, forms: forms!, urlAllowed: encodings.contains(.base64url),
          standardAllowed: encodings.contains(.base64))
        info.chainIDs = info.forms.map { form in
          info.alphabets.map {
            chainID(EncodingChain(form.step == .raw ? [$0.name] : [form.step, $0.name]))
          }
        }
        anchors.append(info)
        kind = .anchor(Int32(anchors.count - 1))
      }
      // Standard base64 is also found wrapped in lines (MIME, PEM): verified across CR/LF.
      let wrapsLines = encoding == .base64 && (pattern.chain.steps.count == 1)
      var target = CompiledMatcher.Target(
        canary: Int32(index), chain: chainID(pattern.chain), kind: kind, foldsCase: foldsCase,
        wrapsLines: wrapsLines, start: storage.count, length: stored.count,
        countsStart: distinctiveCounts.count)
      if case .anchor(let id) = kind { target.reach = anchors[Int(id)].reach }
      if wrapsLines { target.reach = max(target.reach, stored.count + 2 * (stored.count / 60 + 1)) }
      targets.append(target)
      if isValue {
        distinctiveCounts += DistinctiveBytes.prefixCounts(of: pattern.bytes, shape: canary.shape)
      }
      storage += stored
      if isValue { storage += pattern.bytes }
    }
  }

  /// The alignment an anchor's base64 core was made at (0 for other wrappers).
  private static func alignment(of bytes: [UInt8], _ anchor: [UInt8], _ wrapper: ScanEncoding) -> Int {
    guard wrapper == .base64 || wrapper == .base64url else { return 0 }
    let alphabet = wrapper == .base64 ? Base64Patterns.standardAlphabet : Base64Patterns.urlAlphabet
    return (0..<3).first { Base64Patterns.core(of: anchor, alignment: $0, alphabet: alphabet) == bytes } ?? 0
  }
}

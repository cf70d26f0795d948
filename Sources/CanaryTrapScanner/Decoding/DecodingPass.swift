/// The scanner's other direction: decodes what the text shows (hex groups, byte lists, base64 of
/// compressed payloads), searches the decoded bytes with the same matcher, and decodes what they
/// show in turn, to ``DecodingLimits/maxDepth``.
///
/// A match in decoded bytes is placed on the text it was decoded from (the exact characters of a
/// hex or byte-list match, the whole run of a compressed payload) and named by its chain, the
/// match's own encoding first: `nsdata-hex`, `fragment → nsdata-hex`, `json-escaped → gzip →
/// base64`. Each run is decoded once per source: runs are taken whole, and a run still going at
/// the end of a buffer is left for the next (the stream keeps its bytes). Passing a limit sets
/// ``cutShort``, which makes the source inconclusive.
final class DecodingPass {
  private let matcher: CompiledMatcher
  private let limits: DecodingLimits
  private let decoders: [any RunDecoder]
  private let enabled: Set<ScanEncoding>
  private let budget: CompressedPayload.Budget
  private let payloads: CompressedPayload
  private var cache = CanaryTargetsCache()
  /// Chains beyond the matcher's, numbered on from `matcher.chains.count`.
  private var extraChains: [EncodingChain] = []
  private var chainIDs: [EncodingChain: UInt16] = [:]
  /// Why decoding stopped short, if it did: the first limit passed.
  private(set) var cutShort: String?

  /// A pass for `matcher`, or `nil` when `options` enable no decoded rendering.
  init?(matcher: CompiledMatcher, options: ScanOptions) {
    let enabled = options.encodings.filter(\.isDecodedOnly)
    guard !enabled.isEmpty else { return nil }
    self.matcher = matcher
    self.enabled = enabled
    limits = options.decodingLimits
    var decoders: [any RunDecoder] = []
    if enabled.contains(.nsdataHex) { decoders.append(HexGroupDecoder()) }
    if !enabled.isDisjoint(with: [.byteList, .hexByteList]) { decoders.append(ByteListDecoder()) }
    if !enabled.isDisjoint(with: [.gzip, .zlib, .deflate]) { decoders.append(Base64RunDecoder()) }
    self.decoders = decoders
    budget = CompressedPayload.Budget(limit: limits.maxDecodedBytes, payloadLimit: limits.maxPayloadBytes)
    payloads = CompressedPayload(budget: budget)
  }

  /// The chain a candidate's id names.
  func chain(_ id: UInt16) -> EncodingChain {
    let index = Int(id)
    return index < matcher.chains.count ? matcher.chains[index] : extraChains[index - matcher.chains.count]
  }

  /// Decodes the runs of `text[from..<end]` and appends the matches in them (marked decoded) to
  /// `candidates`; returns where the next buffer's pass resumes: the start of a run still going
  /// at `end` (when not `final`), or a little before `end`. A run still going after `maxRun`
  /// bytes is not decoded, and the source is cut short if a decoder would have read it.
  func search(
    _ text: UnsafePointer<UInt8>, from: Int, end: Int, final: Bool, maxRun: Int,
    into candidates: inout [MatchCandidate]
  ) -> Int {
    var position = from
    while let run = EncodedRun.next(in: text, from: position, lower: position, end: end) {
      if run.range.upperBound == end && !final {
        if run.range.count < maxRun { return run.range.lowerBound }
        if looksDecodable(text, run) {
          stop("a run of encoded text in the log is longer than \(maxRun) bytes (DecodingLimits.maxRunBytes)")
        }
        return end
      }
      candidates += decode(text, count: end, run: run, depth: 0)
      position = run.range.upperBound
    }
    return max(position, end - EncodedRun.blockLength)
  }

  private func looksDecodable(_ text: UnsafePointer<UInt8>, _ run: EncodedRun) -> Bool {
    switch run.kind {
    case .numeric: return !decoders.isEmpty
    case .base64:
      return (enabled.contains(.gzip) || enabled.contains(.zlib))
        && Base64RunDecoder.holdsCompressedHeader(text, run.range)
    }
  }

  private func stop(_ reason: String) {
    if cutShort == nil { cutShort = reason }
  }

  /// The matches in what `run` decodes to, placed in `text`.
  private func decode(_ text: UnsafePointer<UInt8>, count: Int, run: EncodedRun, depth: Int)
    -> [MatchCandidate]
  {
    var pieces: [DecodedPiece] = []
    for decoder in decoders where decoder.kind == run.kind {
      decoder.decode(text, count: count, run: run.range, into: &pieces)
    }
    var found: [MatchCandidate] = []
    for piece in pieces where enabled.contains(piece.step) || piece.compressed {
      found += search(piece, depth: depth + 1)
    }
    return found
  }

  /// The matches in `piece`, placed on the text it came from.
  private func search(_ piece: DecodedPiece, depth: Int) -> [MatchCandidate] {
    var payload = piece.bytes
    var steps = [piece.step]
    var depth = depth
    do {
      budget.used += payload.count
      if budget.used > limits.maxDecodedBytes {
        stop(
          "more than \(limits.maxDecodedBytes) bytes decoded from the text (DecodingLimits.maxDecodedBytes)")
        return []
      }
      if piece.compressed {
        guard depth < limits.maxDepth else {
          stop(
            "a compressed payload in the text is nested more than \(limits.maxDepth) deep (DecodingLimits.maxDepth)"
          )
          return []
        }
        guard let (container, opened) = try payloads.open(payload), enabled.contains(container) else {
          return []
        }
        payload = opened
        steps.insert(container, at: 0)
        depth += 1
      }
    } catch {
      stop("\(error)")
      return []
    }
    var found: [MatchCandidate] = []
    for inner in searchDecoded(payload, depth: depth) {
      var outer = inner
      outer.decoded = true
      outer.chain = compose(inner.chain, steps, elided: piece.elided)
      if piece.elided { outer.rank = .fragment }
      if !piece.compressed && !piece.starts.isEmpty && inner.end <= piece.starts.count {
        outer.start = Int(piece.starts[inner.start])
        outer.end = Int(piece.ends[inner.end - 1])
      } else {
        outer.start = piece.span.lowerBound
        outer.end = piece.span.upperBound
      }
      found.append(outer)
    }
    return found
  }

  /// The resolved matches in `bytes`, and in what they show, decoded again while `depth` allows.
  private func searchDecoded(_ bytes: [UInt8], depth: Int) -> [MatchCandidate] {
    guard !bytes.isEmpty else { return [] }
    var padded = bytes
    padded.append(contentsOf: repeatElement(0, count: 8))
    var found: [MatchCandidate] = []
    padded.withUnsafeBufferPointer { buffer in
      let text = buffer.baseAddress!
      matcher.findCandidates(in: text, count: bytes.count, cache: &cache, into: &found)
      var position = 0
      guard depth < limits.maxDepth else {
        // Too deep to decode further: a compressed payload here is content never looked at.
        while let run = EncodedRun.next(in: text, from: position, lower: position, end: bytes.count) {
          if run.kind == .base64 && looksDecodable(text, run) {
            stop(
              "a compressed payload in the text is nested more than \(limits.maxDepth) deep (DecodingLimits.maxDepth)"
            )
            return
          }
          position = run.range.upperBound
        }
        return
      }
      while let run = EncodedRun.next(in: text, from: position, lower: position, end: bytes.count) {
        found += decode(text, count: bytes.count, run: run, depth: depth)
        position = run.range.upperBound
      }
    }
    guard !found.isEmpty else { return [] }
    return CandidateResolver.resolve(found, maxLength: bytes.count)
  }

  /// The id of the chain an inner match names once decoded through `steps` (innermost first):
  /// the raw value itself drops out (`raw` through hex groups is `nsdata-hex`), and in an
  /// elided rendering it is a fragment.
  private func compose(_ inner: UInt16, _ steps: [ScanEncoding], elided: Bool) -> UInt16 {
    var innerSteps = chain(inner).steps
    if innerSteps == [.raw] || innerSteps == [.caseInsensitive] { innerSteps = [] }
    if elided && innerSteps.isEmpty { innerSteps = [.fragment] }
    let composed = EncodingChain(innerSteps + steps)
    if let id = chainIDs[composed] { return id }
    let id = UInt16(matcher.chains.count + extraChains.count)
    extraChains.append(composed)
    chainIDs[composed] = id
    return id
  }
}

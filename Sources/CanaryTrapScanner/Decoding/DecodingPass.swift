/// The scanner's other direction: decodes what the text shows (hex groups, hex dumps, byte lists,
/// base64 of compressed payloads, percent-encoded text, backslash escapes), searches the decoded bytes with the same
/// matcher, and decodes what they show in turn, to ``DecodingLimits/maxDepth``.
///
/// A match in decoded bytes is placed on the text it was decoded from (the exact characters of a
/// hex or byte-list match, the whole run of a compressed payload) and named by its chain, the
/// match's own encoding first: `nsdata-hex`, `fragment → nsdata-hex`, `json-escaped → gzip →
/// base64`. Each run is decoded once per source: runs are taken whole, and a run still going at
/// the end of a buffer is left for the next (the stream keeps its bytes). A large buffer is
/// decoded in two parts at once, cut at a line break (only a ``WrappedPayload`` crosses one: the
/// first part follows it into the second), each by a ``DecodingWorker`` of its own. Passing a
/// limit sets ``cutShort``, which makes the source inconclusive.
final class DecodingPass {
  /// The fewest bytes decoded in two parts.
  static let bytesWorthASecondThread = 256 << 10

  private let matcher: CompiledMatcher
  private let limits: DecodingLimits
  private let workers: [DecodingWorker]
  /// Whether to decode large buffers in two parts; tests compare both ways.
  var splits = SplitSearch.hasSecondProcessor
  /// Chains beyond the matcher's, numbered for the source.
  private var numbering: ChainNumbering
  /// Bytes decoded from the source so far, all parts together.
  private var used = 0
  /// Why decoding stopped short, if it did: the first limit passed.
  private(set) var cutShort: String?

  /// A pass for `matcher`, or `nil` when `options` enable no decoded rendering.
  init?(matcher: CompiledMatcher, options: ScanOptions) {
    // Percent-encoded text is decoded as well as searched forward: see PercentRunDecoder; so is
    // the shown part of elided hex (HexGroupDecoder), and base64 of a payload's base64
    // (Base64RunDecoder).
    let enabled = options.encodings.filter {
      $0.isDecodedOnly || $0 == .hex || $0 == .base64
        || options.decodesPercentRuns && ($0 == .percent || $0 == .form)
    }
    var decoders = RunDecoders()
    if enabled.contains(.nsdataHex) { decoders.hexGroups = HexGroupDecoder() }
    if !enabled.isDisjoint(with: [.byteList, .hexByteList]) { decoders.byteLists = ByteListDecoder() }
    decoders.hexDumps = enabled.contains(.hexDump)
    if !enabled.isDisjoint(with: ScanEncoding.compressedPayloads) { decoders.base64Runs = Base64RunDecoder() }
    if enabled.contains(.percent) { decoders.percentRuns = PercentRunDecoder() }
    if enabled.contains(.hexEscaped) { decoders.escapedRuns = EscapedBytesDecoder() }
    guard decoders.readsAnyRun else { return nil }
    self.matcher = matcher
    numbering = ChainNumbering(matcher: matcher)
    limits = options.decodingLimits
    workers = (0..<2).map { _ in
      DecodingWorker(
        matcher: matcher, limits: options.decodingLimits, decoders: decoders, enabled: enabled,
        joinsWrappedLines: options.joinsWrappedLines)
    }
  }

  /// The chain a candidate's id names.
  func chain(_ id: UInt16) -> EncodingChain { numbering.chain(id) }

  /// Decodes the runs of `text[from..<end]` and appends the matches in them (marked decoded) to
  /// `candidates`; returns where the next buffer's pass resumes: the start of a run still going
  /// at `end` (when not `final`), or a little before `end`. A run still going after `maxRun`
  /// bytes is not decoded, and the source is cut short if a decoder would have read it.
  /// `firstLineHead` holds the first bytes of the line `text` begins inside, when it began
  /// before `text` (the prefix a wrapped payload's lines repeat).
  func search(
    _ text: UnsafePointer<UInt8>, from: Int, end: Int, final: Bool, maxRun: Int,
    firstLineHead: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0),
    into candidates: inout [MatchCandidate]
  ) -> Int {
    let remaining = max(0, limits.maxDecodedBytes - used)
    let middle = from + (end - from) / 2
    let cut =
      splits && end - from >= Self.bytesWorthASecondThread
      ? EncodedRun.last(0x0A, in: text, 0..<middle).map { $0 + 1 } : nil
    let last: DecodingWorker
    if let cut, cut > from {
      for worker in workers { worker.begin(remaining: remaining) }
      let parts = Parts(text: text, workers: workers, firstLineHead: firstLineHead)
      DedicatedThreads.concurrentPerform(iterations: 2) { part in
        if part == 0 {
          parts.workers[0].search(
            parts.text, from: from, end: cut, final: final, maxRun: maxRun, lookahead: end,
            firstLineHead: parts.firstLineHead)
        } else {
          parts.workers[1].search(
            parts.text, from: cut, end: end, final: final, maxRun: maxRun, afterAPart: true)
        }
      }
      gather(workers[0], into: &candidates)
      // A payload wrapped past the buffer's end from the first part: the next pass resumes at it,
      // and finds again what the second part found.
      if workers[0].waitsForMore { return workers[0].resume }
      last = workers[1]
    } else {
      workers[1].begin(remaining: remaining)
      workers[1].search(
        text, from: from, end: end, final: final, maxRun: maxRun, firstLineHead: firstLineHead)
      last = workers[1]
    }
    gather(last, into: &candidates)
    return last.resume
  }

  /// Adds `worker`'s matches to `candidates` with its chains renumbered for the source, and
  /// counts what it decoded.
  private func gather(_ worker: DecodingWorker, into candidates: inout [MatchCandidate]) {
    used += worker.budget.used
    if let reason = worker.cutShort, cutShort == nil { cutShort = reason }
    if used > limits.maxDecodedBytes && cutShort == nil {
      cutShort =
        "more than \(limits.maxDecodedBytes) bytes decoded from the text (DecodingLimits.maxDecodedBytes)"
    }
    for var candidate in worker.found {
      if Int(candidate.chain) >= matcher.chains.count {
        candidate.chain = numbering.id(of: worker.chain(candidate.chain))
      }
      candidates.append(candidate)
    }
  }

}

/// Chains beyond a matcher's, numbered on from `matcher.chains.count` as they are first met: a
/// worker numbers the chains it composes, the pass renumbers them for the whole source.
struct ChainNumbering {
  private let matcher: CompiledMatcher
  private var extra: [EncodingChain] = []
  private var ids: [EncodingChain: UInt16] = [:]

  init(matcher: CompiledMatcher) { self.matcher = matcher }

  /// The chain `id` names: the matcher's, or one numbered here.
  func chain(_ id: UInt16) -> EncodingChain {
    let index = Int(id)
    return index < matcher.chains.count ? matcher.chains[index] : extra[index - matcher.chains.count]
  }

  /// The id of `chain`, numbered now when it is new.
  mutating func id(of chain: EncodingChain) -> UInt16 {
    if let id = ids[chain] { return id }
    let id = UInt16(matcher.chains.count + extra.count)
    extra.append(chain)
    ids[chain] = id
    return id
  }

  /// Forgets the chains numbered here.
  mutating func removeAll() {
    extra.removeAll(keepingCapacity: true)
    ids.removeAll(keepingCapacity: true)
  }
}

/// What the two threads of a split ``DecodingPass`` share: each uses only its own worker, and
/// the caller reads them after both threads finished.
private final class Parts: @unchecked Sendable {
  let text: UnsafePointer<UInt8>
  let workers: [DecodingWorker]
  let firstLineHead: UnsafeBufferPointer<UInt8>

  init(text: UnsafePointer<UInt8>, workers: [DecodingWorker], firstLineHead: UnsafeBufferPointer<UInt8>) {
    self.text = text
    self.workers = workers
    self.firstLineHead = firstLineHead
  }
}

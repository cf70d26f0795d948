#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans one source fed in chunks of any size, with constant memory.
///
/// The stream keeps a buffer of about 1 MiB plus an overlap long enough for the longest literal
/// and the excerpt context on both sides, so a match straddling two chunks is found exactly once.
/// Feed it with ``feed(_:)`` and call ``finish()`` once at the end. Lines are counted as the bytes
/// stream past, so a source is never read twice (a FIFO or a growing file numbers correctly). At
/// most ``ScanOptions/maxFindingsPerCanary`` findings are kept per canary; the rest are counted in
/// ``omittedFindings``. A buffer of 256 KiB or more is searched as two halves on two threads (the
/// main pass and the line junction pass), with the findings of one search. Not thread-safe: one
/// stream belongs to one reader.
package final class ScanStream {
  /// The bytes a buffer holds beyond the overlap before it is scanned.
  static let defaultChunkSize = 1 << 20

  private let matcher: CompiledMatcher
  private let canaries: [Canary]
  private let source: String
  private let radius: Int
  private let overlap: Int
  private let capacity: Int
  private let buffer: UnsafeMutablePointer<UInt8>
  /// Bytes currently in ``buffer``.
  private var count = 0
  /// The absolute offset of `buffer[0]` in the source.
  private var base = 0
  /// Matches ending before this absolute offset were reported by an earlier buffer.
  private var frontier = 0
  private var lines = LineCounter()
  private var candidates: [MatchCandidate] = []
  /// The literals of canaries found lately, rebuilt from their values by the matcher.
  private var rebuiltTargets = CanaryTargetsCache()
  /// Searches a large buffer on two threads; `split.splits` is internal so tests can compare.
  var split = SplitSearch()
  /// Whether large buffers are decoded in two parts at once; tests compare both ways.
  var decodingSplits: Bool {
    get { decoding?.splits ?? false }
    set { decoding?.splits = newValue }
  }
  /// Finds the canaries a wrapping logger cut across two lines.
  private let junctions: LineJunctionSearch
  /// The first bytes of the line the buffer starts inside, when it began before the buffer: the
  /// prefix a wrapping logger may repeat on the next line.
  private var lineHead: [UInt8] = []
  private var findings: [LeakFinding] = []
  private var finished = false
  /// The most findings kept per canary.
  private let findingCap: Int
  /// Findings kept so far, per canary index.
  private var kept: [Int]
  /// Findings counted but not kept, per canary index.
  private var omitted: [Int]
  /// The offset the stream started at: 0, or where an incremental file scan resumed.
  private let startOffset: Int
  /// Decodes what the text shows (hex groups, byte lists, base64 of compressed payloads).
  private let decoding: DecodingPass?
  /// The absolute offset the decoding pass resumes at: its bytes are kept in the buffer.
  private var decodeResume: Int
  /// The longest run of encoded text the decoding pass waits for across buffers.
  private let maxRun: Int

  init(
    matcher: CompiledMatcher, canaries: [Canary], source: String, options: ScanOptions, chunkSize: Int,
    startingAt start: LineCounter = LineCounter()
  ) {
    self.matcher = matcher
    self.canaries = canaries
    self.source = source
    radius = max(0, options.excerptRadius)
    findingCap = max(1, options.maxFindingsPerCanary)
    kept = Array(repeating: 0, count: canaries.count)
    omitted = Array(repeating: 0, count: canaries.count)
    lines = start
    base = start.position
    startOffset = start.position
    frontier = start.position
    decodeResume = start.position
    // A match cut across a line break also spans the break and the continuation's layout.
    overlap = matcher.maxLength + LineJunctionSearch.maxLayoutBytes + 2 * radius + 8
    junctions = LineJunctionSearch(matcher: matcher, isEnabled: options.joinsWrappedLines)
    capacity = overlap + max(chunkSize, overlap, 64)
    buffer = .allocate(capacity: capacity + 8)
    decoding = DecodingPass(matcher: matcher, options: options)
    maxRun = max(EncodedRun.blockLength, min(options.decodingLimits.maxRunBytes, capacity / 2))
    buffer.initialize(repeating: 0, count: capacity + 8)
  }

  deinit { buffer.deallocate() }

  /// Bytes fed so far (for a file scanned from an offset, not counting the bytes before it).
  package var bytesScanned: Int { base + count - startOffset }

  /// Every finding of the source, kept or not: exact whatever the cap.
  package var totalFindings: Int { findings.count + omitted.reduce(0, +) }

  /// How many findings of each canary were counted but not kept, once ``finish()`` was called.
  package var omittedFindings: [OmittedFindings] {
    omitted.indices.compactMap { index in
      omitted[index] == 0
        ? nil : OmittedFindings(canary: canaries[index], source: source, count: omitted[index])
    }
  }

  /// Why decoding what the text shows stopped short (a ``DecodingLimits`` limit), if it did: the
  /// source is then inconclusive, never clean.
  package var decodingCutShort: String? { decoding?.cutShort }

  /// Scans the next bytes of the source.
  package func feed(_ chunk: some Collection<UInt8>) {
    precondition(!finished, "ScanStream.feed called after finish()")
    let handled: Void? = chunk.withContiguousStorageIfAvailable { append($0) }
    if handled == nil { Array(chunk).withUnsafeBufferPointer { append($0) } }
  }

  /// Scans what remains and returns every finding of the source, in offset order. Calling it
  /// again returns the same findings.
  package func finish() -> [LeakFinding] {
    if !finished {
      finished = true
      process(final: true)
      findings.sort { ($0.offset, $0.encoding) < ($1.offset, $1.encoding) }
    }
    return findings
  }

  /// Copies `bytes` in, scanning each time the buffer fills.
  private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard var next = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let taken = min(remaining, capacity - count)
      (buffer + count).update(from: next, count: taken)
      count += taken
      next += taken
      remaining -= taken
      if count == capacity { process(final: false) }
    }
  }

  /// Lets `body` write up to the returned space directly into the buffer (file reads), then
  /// scans if the buffer is full. `body` returns how many bytes it wrote, 0 at the end.
  func fill(_ body: (UnsafeMutablePointer<UInt8>, Int) throws -> Int) rethrows -> Int {
    precondition(!finished, "ScanStream.fill called after finish()")
    let written = try body(buffer + count, capacity - count)
    count += written
    if count == capacity { process(final: false) }
    return written
  }

  private func process(final: Bool) {
    let end = base + count
    let emitLimit = final ? end : end - radius - 1
    candidates.removeAll(keepingCapacity: true)
    split.findCandidates(
      matcher, junctions: junctions, in: buffer, count: count, firstLineHead: lineHead,
      cache: &rebuiltTargets,
      into: &candidates)
    var longest = matcher.maxLength + LineJunctionSearch.maxLayoutBytes
    if let decoding {
      let from = max(0, decodeResume - base)
      let before = candidates.count
      let resume = lineHead.withUnsafeBufferPointer { head in
        decoding.search(
          buffer, from: from, end: count, final: final, maxRun: maxRun, firstLineHead: head, into: &candidates
        )
      }
      decodeResume = base + resume
      for candidate in candidates[before...] { longest = max(longest, candidate.end - candidate.start) }
    }
    if !candidates.isEmpty {
      let ready = CandidateResolver.resolve(candidates, maxLength: longest).filter {
        $0.decoded || (base + $0.end >= frontier && base + $0.end <= emitLimit)
      }.sorted { $0.start < $1.start }
      report(ready)
    }
    frontier = emitLimit + 1
    guard !final else { return }
    // The bytes of a run the decoding pass waits for stay too (at most half the buffer).
    let dropped = min(count - overlap, max(decodeResume - base, count - maxRun))
    lines.advance(over: buffer, count: dropped)
    keepLineHead(droppingFirst: dropped)
    memmove(buffer, buffer + dropped, count - dropped)
    base += dropped
    count -= dropped
  }

  /// Keeps the start of the line the buffer will start inside once its first `dropped` bytes go.
  private func keepLineHead(droppingFirst dropped: Int) {
    // With no line feed, the line began before this buffer: its head is kept.
    guard let lastBreak = EncodedRun.last(0x0A, in: buffer, 0..<dropped) else { return }
    lineHead.removeAll(keepingCapacity: true)
    let start = lastBreak + 1
    guard start < dropped else { return }
    lineHead.append(
      contentsOf: UnsafeBufferPointer(
        start: buffer + start, count: min(LineJunctionSearch.maxRepeatedPrefix, count - start)))
  }

  /// Turns resolved matches (sorted by start) into findings with line, column and excerpt, keeping
  /// at most ``findingCap`` per canary and counting the rest.
  private func report(_ matches: [MatchCandidate]) {
    var cursor = lines
    var cursorIndex = 0
    for match in matches {
      let canary = Int(match.canary)
      guard kept[canary] < findingCap else {
        omitted[canary] += 1
        continue
      }
      kept[canary] += 1
      cursor.advance(over: buffer + cursorIndex, count: match.start - cursorIndex)
      cursorIndex = match.start
      let (line, column) = cursor.lineAndColumn
      // A match covering a whole payload shows its start only, as far as the radius reaches.
      let shown = match.coversRun ? match.start..<match.start : match.start..<match.end
      let bounds = Excerpt.bounds(
        in: UnsafeBufferPointer(start: buffer, count: count), match: shown, radius: radius)
      var excerpt = Excerpt.render(
        UnsafeBufferPointer(start: buffer + bounds.lowerBound, count: bounds.count))
      if bounds.upperBound < match.end { excerpt += "…" }
      findings.append(
        LeakFinding(
          canary: canaries[canary],
          encodings: decoding?.chain(match.chain) ?? matcher.chains[Int(match.chain)],
          source: source,
          line: line, column: column, offset: base + match.start, excerpt: excerpt))
    }
  }
}

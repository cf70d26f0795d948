#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread's share of a ``DecodingPass``: decodes the runs of a stretch of text, searches the
/// decoded bytes and what they show in turn, and keeps what it needs to itself (its literal
/// cache, its payload reader, the chains it composed), so two workers run at once on two parts
/// of a buffer.
final class DecodingWorker {
  private let matcher: CompiledMatcher
  private let limits: DecodingLimits
  private let decoders: RunDecoders
  private let enabled: Set<ScanEncoding>
  /// Whether base64 payloads wrapped into lines are joined (``ScanOptions/joinsWrappedLines``).
  private let joinsWrappedLines: Bool
  /// The bytes this worker decoded in its current part, against what the source has left.
  let budget: CompressedPayload.Budget
  private let payloads: CompressedPayload
  private var cache = CanaryTargetsCache()
  /// ``EncodedRun/classes``, held so a run's check reads no global.
  private let runClasses = EncodedRun.classes
  /// Chains this worker composed, numbered on from `matcher.chains.count` in its candidates.
  private var numbering: ChainNumbering
  /// Why decoding stopped short, if it did: the first limit this worker passed.
  private(set) var cutShort: String?
  /// The matches of the current part.
  var found: [MatchCandidate] = []
  /// Where the next buffer's pass resumes, once
  /// ``search(_:from:end:final:maxRun:lookahead:firstLineHead:)`` ran.
  private(set) var resume = 0
  /// Whether the part stopped at a wrapped payload going on past the text it could look at: the
  /// pass resumes there, at ``resume``, and what later parts found is found again then.
  private(set) var waitsForMore = false

  init(
    matcher: CompiledMatcher, limits: DecodingLimits, decoders: RunDecoders, enabled: Set<ScanEncoding>,
    joinsWrappedLines: Bool = true
  ) {
    self.matcher = matcher
    self.limits = limits
    self.decoders = decoders
    self.enabled = enabled
    self.joinsWrappedLines = joinsWrappedLines
    numbering = ChainNumbering(matcher: matcher)
    budget = CompressedPayload.Budget(limit: limits.maxDecodedBytes, payloadLimit: limits.maxPayloadBytes)
    payloads = CompressedPayload(budget: budget)
  }

  /// Starts a part with `remaining` bytes of the source's budget left to decode.
  func begin(remaining: Int) {
    budget.used = 0
    budget.limit = remaining
    found.removeAll(keepingCapacity: true)
    numbering.removeAll()
    cutShort = nil
    waitsForMore = false
  }

  /// The chain a candidate of this worker names.
  func chain(_ id: UInt16) -> EncodingChain { numbering.chain(id) }

  /// Decodes the runs of `text[from..<end]` into ``found`` and sets ``resume``: the start of a
  /// run still going at `end` (when not `final`), or a little before `end`. A run still going
  /// after `maxRun` bytes is not decoded, and the source is cut short if a decoder would have
  /// read it. A payload wrapped into lines may be followed past `end` up to `lookahead` (the end
  /// of the text, which `final` then describes): one going on past it sets ``waitsForMore``.
  /// `firstLineHead` holds the first bytes of the line `text` begins inside, when it began before.
  /// `afterAPart` when the part before `from` is searched at once by another worker, which reads
  /// a list printed one number per line going on past `from` (``ByteListColumn``) whole.
  func search(
    _ text: UnsafePointer<UInt8>, from: Int, end: Int, final: Bool, maxRun: Int, lookahead: Int? = nil,
    firstLineHead: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0),
    afterAPart: Bool = false
  ) {
    var end = end
    var final = final
    var limit = lookahead ?? end
    if decoders.byteLists != nil,
      let unfinished = searchColumns(
        text, from: afterAPart ? ByteListColumn.pastContinuation(in: text, from: from, limit: limit) : from,
        end: end,
        limit: limit, final: final, maxRun: maxRun)
    {
      // The runs before a column going on past the text are read now, the column with the next
      // pass, which resumes at it.
      if keepsForMore(from: unfinished, limit: limit, maxRun: maxRun) {
        (end, final, limit) = (unfinished, false, unfinished)
      }
    }
    var position = from
    var joinedThrough = from
    var runs = EncodedRunWalk(
      text, end: end, findsPercent: decoders.percentRuns != nil, findsEscaped: decoders.escapedRuns != nil,
      final: limit == end ? final : true, maxRun: maxRun)
    while let run = runs.next(from: position) {
      let runFrom = position
      if run.range.upperBound == end && !final && limit == end {
        if run.range.count < maxRun {
          resume = run.range.lowerBound
          return
        }
        if looksDecodable(text, run) {
          stop(Self.tooLong(maxRun))
        }
        resume = end
        return
      }
      // A payload or rendering that starts near its line's end shows too few characters there
      // for a run: the run continuing it on the next line is the first found, and the lines
      // are joined from the piece before it (before that run is read as a dump line: a line of
      // hex groups starting with a short number, `6163 65223a22 …`, may read as one).
      if joinsWrappedLines, run.kind == .base64 && !run.isHex || run.kind == .numeric,
        let lineFeed = Self.lineFeed(before: run.range.lowerBound, after: runFrom, in: text),
        let piece = Self.shortPiece(
          before: run, lineFeed: lineFeed, after: runFrom, in: text, classes: runClasses)
      {
        let joins =
          run.kind == .base64
          ? joinPayload(
            text, run: piece, lastPieceOpens: false, continuedBy: run.range, limit: limit, final: final,
            maxRun: maxRun, firstLineHead: firstLineHead)
          : joinNumeric(
            text, run: EncodedRun(range: piece, kind: .numeric), continuedBy: run.range, limit: limit,
            final: final, maxRun: maxRun, firstLineHead: firstLineHead, joinedThrough: &joinedThrough)
        guard joins else { return }
      }
      if run.kind == .numeric, !run.isHex, decoders.hexDumps,
        !WrappedNumericRun.followsABracket(text, run.range)
      {
        // A dump's lines are read together, from the run on its first line to its last line (hex
        // digits alone, an id or a digest, are no dump line: its groups are apart; nor are the
        // numbers after `<` or `[`, whose first group may read as an offset).
        switch HexDump.read(text, run: run.range, limit: limit, final: final, maxRun: maxRun) {
        case .none: break
        case .unfinished: if keepsForMore(from: run.range.lowerBound, limit: limit, maxRun: maxRun) { return }
        case .tooLong: stop(Self.tooLong(maxRun))
        case .read(let dump):
          found += search(dump.pieces(), in: text, depth: 0)
          position = max(run.range.upperBound, dump.end)
          continue
        }
      }
      var pieces: [DecodedPiece] = []
      decoders.decode(text, count: end, run: run, into: &pieces)
      if joinsWrappedLines, run.kind == .base64, !run.isHex {
        // Whether the run's last piece was read as a compressed payload, or as the base64 of one
        // (when long enough to be).
        let lastPieceOpens =
          pieces.last.map {
            ($0.compressed || $0.step == .base64) && $0.span.upperBound == run.range.upperBound
          } ?? false
        guard
          joinPayload(
            text, run: run.range, lastPieceOpens: lastPieceOpens, limit: limit, final: final, maxRun: maxRun,
            firstLineHead: firstLineHead)
        else { return }
      }
      if joinsWrappedLines, run.kind == .percent, let percent = decoders.percentRuns {
        switch WrappedPercentRun.join(
          text, run: run.range, limit: limit, final: final, filter: matcher.junctionFilter,
          firstLineHead: firstLineHead)
        {
        case .none: break
        case .unfinished: if keepsForMore(from: run.range.lowerBound, limit: limit, maxRun: maxRun) { return }
        case .joined(let wrapped) where wrapped.segments.last!.upperBound - run.range.lowerBound > maxRun:
          stop(Self.tooLong(maxRun))
        case .joined(let wrapped): found += search(wrapped.decode(text, with: percent), in: text, depth: 0)
        }
      }
      // The lines of a rendering joined already are not joined again from each of their runs
      // (whose own head would read the numbers before them as a prefix).
      if joinsWrappedLines, let numeric = Self.numericRun(run, endingWith: pieces, in: text, count: end),
        numeric.range.lowerBound >= joinedThrough,
        !joinNumeric(
          text, run: numeric, limit: limit, final: final, maxRun: maxRun, firstLineHead: firstLineHead,
          joinedThrough: &joinedThrough)
      {
        return
      }
      if !pieces.isEmpty { found += search(pieces, in: text, depth: 0) }
      position = run.range.upperBound
    }
    resume = max(position, end - EncodedRun.blockLength)
  }

  /// Decodes and searches the byte lists printed one number per line (``ByteListColumn``) that
  /// start in `text[from..<end]`, read up to `limit` (the text's end when `final`); returns the
  /// start of one going on past `limit`, which the next pass reads. A long list is read in
  /// pieces that overlap by more than the longest literal; one that begins as a compressed
  /// stream is read whole, up to half of `maxRun` numbers, past which the source is cut short.
  private func searchColumns(
    _ text: UnsafePointer<UInt8>, from: Int, end: Int, limit: Int, final: Bool, maxRun: Int
  ) -> Int? {
    let overlap = matcher.maxLength + 1
    var start = from
    var continuing = false
    while var next = ByteListColumn.next(
      in: text, from: start, end: end, limit: limit, final: final, maxNumbers: 4 * overlap,
      continuing: continuing)
    {
      if case .column(let column) = next, column.continues, !continuing, column.piece(text).mayBeCompressed {
        // A payload opens only whole.
        next = ByteListColumn.next(
          in: text, from: start, end: end, limit: limit, final: final,
          maxNumbers: max(4 * overlap, maxRun / 2))!
        if case .column(let whole) = next, whole.continues { stop(Self.tooLong(maxRun)) }
      }
      switch next {
      case .unfinished(let columnStart): return columnStart
      case .column(let column):
        var matches = search([column.piece(text)], in: text, depth: 0)
        continuing = column.continues
        start = column.next
        if continuing {
          // The next piece starts with this one's last numbers, at least `overlap` of them, and
          // finds what starts there; it starts past the end of every match kept here, whose tail
          // it would otherwise find again as a fragment (in the next pass, where they would not
          // be resolved together).
          var restart = column.numbers.count - 2 * overlap
          while true {
            let position = column.numbers[restart].lowerBound
            let reach = matches.lazy.filter { $0.start < position }.map(\.end).max() ?? 0
            guard restart < column.numbers.count - overlap, position < reach else { break }
            while restart < column.numbers.count - overlap && column.numbers[restart].lowerBound < reach {
              restart += 1
            }
          }
          matches.removeAll { $0.start >= column.numbers[restart].lowerBound }
          start = column.lineStarts[restart]
        }
        found += matches
      }
    }
    return nil
  }

  /// Joins the lines of a base64 payload whose first line ends with `run` (see
  /// ``WrappedPayload/join(_:run:limit:final:lastPieceOpens:firstLineHead:)``) and searches what
  /// they decode to; when `continuedBy` is given, only a join whose first continuation starts
  /// there counts. `false` when the search must stop: the payload goes on past the text, kept
  /// for the next pass.
  private func joinPayload(
    _ text: UnsafePointer<UInt8>, run: Range<Int>, lastPieceOpens: Bool, continuedBy: Range<Int>? = nil,
    limit: Int, final: Bool, maxRun: Int, firstLineHead: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard let base64 = decoders.base64Runs else { return true }
    switch WrappedPayload.join(
      text, run: run, limit: limit, final: final, lastPieceOpens: lastPieceOpens, firstLineHead: firstLineHead
    )
    {
    case .none: break
    case .unfinished: return !keepsForMore(from: run.lowerBound, limit: limit, maxRun: maxRun)
    case .joined(let payload) where !Self.continues(payload.segments, continuedBy): break
    case .joined(let payload) where payload.segments.last!.upperBound - run.lowerBound > maxRun:
      stop(Self.tooLong(maxRun))
    case .joined(let payload):
      for piece in payload.decode(text, with: base64) { found += search(piece, in: text, depth: 1) }
    }
    return true
  }

  /// Joins the lines of a rendering whose first line ends with `run` (see
  /// ``WrappedNumericRun/join(_:run:limit:final:firstLineHead:)``), searches what they decode to
  /// and moves `joinedThrough` past them; when `continuedBy` is given, only a join whose first
  /// continuation starts there counts. `false` when the search must stop, as for
  /// ``joinPayload(_:run:lastPieceOpens:continuedBy:limit:final:maxRun:firstLineHead:)``.
  /// Lines whose first continuation's prefix ended with a number are read a second time with
  /// that number as the rendering's (``ContinuationLines/Reader``), and both joins searched.
  private func joinNumeric(
    _ text: UnsafePointer<UInt8>, run: EncodedRun, continuedBy: Range<Int>? = nil, limit: Int, final: Bool,
    maxRun: Int, firstLineHead: UnsafeBufferPointer<UInt8>, joinedThrough: inout Int,
    trimsFirstNumber: Bool = false
  ) -> Bool {
    guard decoders.readsNumericRuns else { return true }
    switch WrappedNumericRun.join(
      text, run: run, limit: limit, final: final, firstLineHead: firstLineHead,
      trimsFirstNumber: trimsFirstNumber)
    {
    case .none: break
    case .unfinished: return !keepsForMore(from: run.range.lowerBound, limit: limit, maxRun: maxRun)
    case .joined(let wrapped) where !Self.continues(wrapped.segments, continuedBy): break
    case .joined(let wrapped) where wrapped.segments.last!.upperBound - run.range.lowerBound > maxRun:
      stop(Self.tooLong(maxRun))
      joinedThrough = max(joinedThrough, wrapped.segments.last!.upperBound)
    case .joined(let wrapped):
      found += search(wrapped.decode(text, with: decoders), in: text, depth: 0)
      joinedThrough = max(joinedThrough, wrapped.segments.last!.upperBound)
      if wrapped.firstPrefixEndsWithNumber && !trimsFirstNumber {
        return joinNumeric(
          text, run: run, continuedBy: continuedBy, limit: limit, final: final, maxRun: maxRun,
          firstLineHead: firstLineHead, joinedThrough: &joinedThrough, trimsFirstNumber: true)
      }
    }
    return true
  }

  /// Whether joined `segments` go on with `run` as their first continuation (past blanks
  /// before its text), or `run` is `nil`.
  private static func continues(_ segments: [Range<Int>], _ run: Range<Int>?) -> Bool {
    guard let run else { return true }
    return segments.count > 1 && run.lowerBound <= segments[1].lowerBound
      && segments[1].lowerBound < run.upperBound
  }

  /// The last line feed of `text[lower..<position]` within a continuation's layout of
  /// `position` (``LineJunctionSearch/maxRepeatedPrefix`` and
  /// ``LineJunctionSearch/maxIndentation``).
  private static func lineFeed(before position: Int, after lower: Int, in text: UnsafePointer<UInt8>) -> Int?
  {
    let layout = LineJunctionSearch.maxRepeatedPrefix + LineJunctionSearch.maxIndentation
    return EncodedRun.last(0x0A, in: text, max(lower, position - layout - 1)..<position)
  }

  /// The piece of a payload or rendering that ends the line before `run` (whose last line feed
  /// is `lineFeed`), when it is too short for a run of its own (under
  /// ``EncodedRun/blockLength`` characters of `run`'s class, after `lower`) and may start what
  /// `run` continues on the next line, past that line's layout: base64 beginning as a compressed
  /// stream, or a rendering's start (``WrappedNumericRun/startsARendering(_:_:)``). `classes` is
  /// ``EncodedRun/classes``.
  private static func shortPiece(
    before run: EncodedRun, lineFeed: Int, after lower: Int, in text: UnsafePointer<UInt8>,
    classes: [UInt8]
  )
    -> Range<Int>?
  {
    let lineEnd = lineFeed > lower && text[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
    let bit: UInt8 = run.kind == .base64 ? 1 : 2
    var start = lineEnd
    while start > lower && lineEnd - start < EncodedRun.blockLength
      && classes[Int(text[start - 1])] & bit != 0
    {
      start -= 1
    }
    // A stretch of a block or more was a run of its own, joined from there.
    guard lineEnd - start < EncodedRun.blockLength else { return nil }
    if run.kind == .base64 {
      // The payload starts after a key's `=` (`body=H4sI`).
      if let equals = EncodedRun.last(UInt8(ascii: "="), in: text, start..<lineEnd) { start = equals + 1 }
      guard start < lineEnd, WrappedPayload.startsCompressed(text, start..<lineEnd, then: run.range) else {
        return nil
      }
      return start..<lineEnd
    }
    // A rendering may show nothing but its `[` or `<` before the line's end.
    let piece = start..<lineEnd
    return WrappedNumericRun.startsARendering(text, WrappedNumericRun.renderingStart(text, piece)..<lineEnd)
      ? piece : nil
  }

  /// The numeric run a wrapped rendering may start with: `run` itself, or the hex ending a base64
  /// run (`data=1f8b0800…` at a line's end): a compressed payload's, read from `pieces`, what
  /// the run decoded to, or hex after a key's `=` that may be raw deflate, whose first line may
  /// hold too few digits to tell.
  private static func numericRun(
    _ run: EncodedRun, endingWith pieces: [DecodedPiece], in text: UnsafePointer<UInt8>, count: Int
  ) -> EncodedRun? {
    if run.kind == .numeric { return run }
    guard run.kind == .base64 else { return nil }
    var start = run.range.upperBound
    // The piece reads whole bytes: an odd last digit (a line cut inside a byte) is left after it.
    if let last = pieces.last, last.step == .hex, last.compressed,
      last.span.upperBound == run.range.upperBound
        || last.span.upperBound + 1 == run.range.upperBound
          && HexDigit.value(text[last.span.upperBound]) != 0xFF
    {
      start = last.span.lowerBound
    } else {
      // Only after a key's `=` at a line's end, and only what may start raw deflate (the first
      // two bytes say) and is hex to the end.
      guard run.range.upperBound < count, ContinuationLines.isBreak(text[run.range.upperBound]),
        let equals = EncodedRun.last(UInt8(ascii: "="), in: text, run.range)
      else { return nil }
      start = equals + 1
      guard run.range.upperBound - start >= HexGroupDecoder.payloadHeadDigits,
        let first = HexDigit.byte(in: text, at: start), let second = HexDigit.byte(in: text, at: start + 2),
        CompressedPayload.mayStart(first: first, second: second),
        HexDigit.runEnd(in: text, from: start, to: run.range.upperBound) == run.range.upperBound
      else { return nil }
    }
    var hex = EncodedRun(range: start..<run.range.upperBound, kind: .numeric)
    hex.isHex = true
    return hex
  }

  /// Resumes the next pass at `start`, where a join may go on past the text, when what is kept
  /// from there fits in a run (`true`); otherwise the source is cut short as too long.
  private func keepsForMore(from start: Int, limit: Int, maxRun: Int) -> Bool {
    guard limit - start < maxRun else {
      stop(Self.tooLong(maxRun))
      return false
    }
    resume = start
    waitsForMore = true
    return true
  }

  private static func tooDeep(_ maxDepth: Int) -> String {
    "a compressed payload in the text is nested more than \(maxDepth) deep (DecodingLimits.maxDepth)"
  }

  /// Whether `bytes`, found past ``DecodingLimits/maxDepth``, open as a compressed payload (or a
  /// limit or an unreadable member stops them): content never looked at. Bytes that only begin as
  /// a payload may (random bytes read as raw deflate, a header by chance) are none. Not tried
  /// once the part is cut short: the source is inconclusive already.
  private func opens(_ bytes: [UInt8]) -> Bool {
    guard cutShort == nil else { return false }
    do { return try payloads.open(bytes) != nil } catch { return true }
  }

  /// Whether `run`, found past ``DecodingLimits/maxDepth``, decodes to a payload that
  /// ``opens(_:)``, or to the base64 of one's header (not decoded further to tell).
  private func holdsPayload(_ text: UnsafePointer<UInt8>, count: Int, run: EncodedRun) -> Bool {
    var pieces: [DecodedPiece] = []
    decoders.decode(text, count: count, run: run, into: &pieces)
    return pieces.contains { piece in
      piece.compressed || piece.mayBeCompressed ? opens(piece.bytes) : piece.step == .base64
    }
  }

  private static func tooLong(_ maxRun: Int) -> String {
    "a run of encoded text in the log is longer than \(maxRun) bytes (DecodingLimits.maxRunBytes)"
  }

  private func looksDecodable(_ text: UnsafePointer<UInt8>, _ run: EncodedRun) -> Bool {
    switch run.kind {
    case .numeric: return decoders.readsNumericRuns
    case .base64:
      return !enabled.isDisjoint(with: ScanEncoding.compressedPayloads.subtracting([.deflate]))
        && Base64RunDecoder.holdsCompressedHeader(text, run.range)
    case .percent:
      return EncodedRun.nextPercent(in: text, from: run.range.lowerBound, lower: 0, end: run.range.upperBound)
        != nil
    case .escaped:
      return EncodedRun.nextEscaped(in: text, from: run.range.lowerBound, lower: 0, end: run.range.upperBound)
        != nil
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
    decoders.decode(text, count: count, run: run, into: &pieces)
    return search(pieces, in: text, depth: depth)
  }

  /// The matches in the pieces a run at `depth` decoded to, placed in `text`.
  private func search(_ pieces: [DecodedPiece], in text: UnsafePointer<UInt8>, depth: Int) -> [MatchCandidate]
  {
    var found: [MatchCandidate] = []
    for piece in pieces where enabled.contains(piece.step) || piece.compressed {
      found += search(piece, in: text, depth: depth + 1)
    }
    return found
  }

  /// The matches in `piece`, placed on `text`, which it came from. Bytes a text rendering shows
  /// (hex groups, a byte list, a dump, plain hex) that begin as a compressed stream does are
  /// also opened: base64 is not the only way a payload reaches a log.
  private func search(_ piece: DecodedPiece, in text: UnsafePointer<UInt8>, depth: Int) -> [MatchCandidate] {
    var found = search(piece, in: text, depth: depth, counted: false)
    if !piece.compressed, piece.mayBeCompressed {
      var payload = piece
      payload.compressed = true
      found += search(payload, in: text, depth: depth, counted: true)
    }
    return found
  }

  /// The matches in `piece` as ``search(_:in:depth:)`` finds them, opening it when it is
  /// compressed; its bytes are added to the budget unless `counted` already.
  private func search(_ piece: DecodedPiece, in text: UnsafePointer<UInt8>, depth: Int, counted: Bool)
    -> [MatchCandidate]
  {
    var payload = piece.bytes
    var steps = [piece.step] + (piece.outer.map { [$0] } ?? [])
    var depth = depth
    do {
      if !counted { budget.used += payload.count }
      if budget.used > budget.limit {
        stop(
          "more than \(limits.maxDecodedBytes) bytes decoded from the text (DecodingLimits.maxDecodedBytes)")
        return []
      }
      if piece.compressed {
        guard depth < limits.maxDepth else {
          if opens(payload) { stop(Self.tooDeep(limits.maxDepth)) }
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
      if piece.step == .percent || piece.step == .form || piece.step == .hexEscaped,
        Self.isUnchanged(inner, by: piece, in: text)
      {
        // No escape inside the match: the text holds these very bytes. The main pass finds a
        // literal there (and would win the tie); what was decoded further is named without
        // the step.
        guard inner.decoded else { continue }
        outer.chain = compose(inner.chain, Array(steps.dropFirst()), elided: false)
      }
      if piece.elided { outer.rank = .fragment }
      if !piece.compressed && !piece.starts.isEmpty && inner.end <= piece.starts.count {
        outer.start = Int(piece.starts[inner.start])
        outer.end = Int(piece.ends[inner.end - 1])
      } else {
        outer.start = piece.span.lowerBound
        outer.end = piece.span.upperBound
        outer.coversRun = true
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
        var runs = EncodedRunWalk(text, end: bytes.count, findsPercent: false)
        while let run = runs.next(from: position) {
          if run.kind == .base64 && looksDecodable(text, run)
            && holdsPayload(text, count: bytes.count, run: run)
          {
            stop(Self.tooDeep(limits.maxDepth))
            return
          }
          position = run.range.upperBound
        }
        return
      }
      var runs = EncodedRunWalk(
        text, end: bytes.count, findsPercent: decoders.percentRuns != nil,
        findsEscaped: decoders.escapedRuns != nil)
      while let run = runs.next(from: position) {
        found += decode(text, count: bytes.count, run: run, depth: depth)
        position = run.range.upperBound
      }
    }
    guard !found.isEmpty else { return [] }
    return CandidateResolver.resolve(found, maxLength: bytes.count)
  }

  /// Whether the bytes `inner` matched in `piece` stand in `text` as they are: each is its own
  /// character there, no escape of the piece's step (nor a `+` read as a space) inside the match.
  /// Across the lines of a wrapped run, the line junction search finds such a match.
  private static func isUnchanged(
    _ inner: MatchCandidate, by piece: DecodedPiece, in text: UnsafePointer<UInt8>
  ) -> Bool {
    guard inner.end <= piece.starts.count, inner.start < inner.end else { return false }
    for index in inner.start..<inner.end {
      let start = Int(piece.starts[index])
      guard Int(piece.ends[index]) == start + 1, text[start] == piece.bytes[index] else { return false }
    }
    return true
  }

  /// The id of the chain an inner match names once decoded through `steps` (innermost first):
  /// the raw value itself drops out (`raw` through hex groups is `nsdata-hex`), and in an
  /// elided rendering it is a fragment.
  private func compose(_ inner: UInt16, _ steps: [ScanEncoding], elided: Bool) -> UInt16 {
    var innerSteps = chain(inner).steps
    var steps = steps
    if innerSteps == [.raw] || innerSteps == [.caseInsensitive] { innerSteps = [] }
    if elided && innerSteps.isEmpty { innerSteps = [.fragment] }
    // Percent-encoded twice is the forward literal's name, whichever encoder escaped what.
    if steps.first == .percent && innerSteps.last == .percent {
      innerSteps.removeLast()
      steps[0] = .doublePercent
    }
    return numbering.id(of: EncodingChain(innerSteps + steps))
  }
}

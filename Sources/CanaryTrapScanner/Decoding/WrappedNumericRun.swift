/// Bytes shown as hex groups, a byte list or plain hex that a log wrapped into lines, each under
/// the logger's prefix or indentation: Foundation's `<1f8b0800 f9451…` description of a payload,
/// `[123, 34, …` cut at 64 columns. A wrapped rendering is one rendering: its lines are joined
/// past their layout, as ``WrappedPayload`` joins base64, and the joined text is decoded as one
/// run, so a value cut at a line's end is read whole and a compressed payload is opened.
///
/// The run on the first line is still decoded on its own as well.
struct WrappedNumericRun {
  /// Each line's share of the rendering in the text: the run on the first line, then each
  /// continuation past its layout.
  var segments: [Range<Int>]
  /// Whether the first continuation's prefix, as read, ended with a number that may be the
  /// rendering's own digits (``ContinuationLines/Reader/firstPrefixEndsWithNumber``).
  var firstPrefixEndsWithNumber = false

  /// What joining the lines after a run found.
  enum Outcome {
    /// The run is not the start of a wrapped rendering.
    case none
    /// The rendering's lines.
    case joined(WrappedNumericRun)
    /// The rendering may go on past the text looked at: it is read once the rest is there.
    case unfinished
  }

  /// The lines after `run` (a numeric run of `text`) that continue it, read in `text[..<limit]`;
  /// `final` when the text ends at `limit`; `firstLineHead` holds the first bytes of the line
  /// `text` begins inside, when it began before `text`. Only a run that starts a rendering
  /// (``startsARendering(_:_:)``) is joined. Continuations join while each is as wide as the first
  /// of them, up to one that is narrower or followed by other text (`>`, `]`), which is the last;
  /// one whose numbers run on into a word is not joined. With `trimsFirstNumber`, a number
  /// ending the first continuation's prefix is read as the rendering's (see
  /// ``ContinuationLines/Reader``).
  static func join(
    _ text: UnsafePointer<UInt8>, run: EncodedRun, limit: Int, final: Bool,
    firstLineHead: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0),
    trimsFirstNumber: Bool = false
  ) -> Outcome {
    let range = run.range
    guard range.upperBound < limit, ContinuationLines.isBreak(text[range.upperBound]) else {
      return range.upperBound == limit && !final ? .unfinished : .none
    }
    let rendering = renderingStart(text, range)
    let startsOne = startsARendering(text, rendering..<range.upperBound)
    guard startsOne || mayStartWrappedDeflate(text, range) else { return .none }
    var reader = ContinuationLines.Reader(
      text, run: rendering..<range.upperBound, firstLineHead: firstLineHead,
      trimsFirstNumber: trimsFirstNumber, readsFirstNumber: true)
    let classes = EncodedRun.classes
    var segments = [range]
    var lineEnd = range.upperBound
    var width: Int?
    lines: while true {
      let (prefixEnd, start): (Int, Int)
      switch reader.continuation(text, after: lineEnd, limit: limit, final: final) {
      case .line(let layoutEnd, let textStart): (prefixEnd, start) = (layoutEnd, textStart)
      case .end: break lines
      case .unfinished: return .unfinished
      }
      var end = start
      while end < limit && classes[Int(text[end])] & 2 != 0 { end += 1 }
      if end == limit && !final { return .unfinished }
      guard end > start else { break }
      // A line is as wide as its text after the prefix, blanks included: a cut before the blank
      // that separates two numbers starts the next line with it, which the layout skips.
      let lineWidth = end - prefixEnd
      let followedByText = end < limit && !ContinuationLines.isBreak(text[end])
      // Letters or `-` right after the numbers (`done`, a timestamp's `2026-12-06`) are the next
      // message's text, not this rendering's end: its `>`, `]` or `"` is.
      if followedByText && Self.continuesAWord(text[end]) { break }
      // The last line: followed by other text, or narrower than the lines before it.
      let isLast = end == limit || followedByText || width.map { lineWidth < $0 } == true
      if !isLast, let width, lineWidth != width { break }
      segments.append(start..<end)
      if isLast { break }
      width = width ?? lineWidth
      lineEnd = end
    }
    guard segments.count > 1 else { return .none }
    // Plain hex that may be raw deflate is read as such only past a digest's length.
    if !startsOne && segments.reduce(0, { $0 + $1.count }) <= HexGroupDecoder.longestDigestDigits {
      return .none
    }
    return .joined(
      WrappedNumericRun(segments: segments, firstPrefixEndsWithNumber: reader.firstPrefixEndsWithNumber))
  }

  /// Whether `run` is plain hex to its line's end that begins as a raw deflate stream may: such a
  /// payload, which has no header, is read as deflate only past a digest's length, which a
  /// wrapped one's first line may not reach; its lines joined tell.
  static func mayStartWrappedDeflate(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Bool {
    var first = run.lowerBound
    while first < run.upperBound && text[first] == 0x20 { first += 1 }
    return HexDigit.runEnd(in: text, from: first, to: run.upperBound) == run.upperBound
      && HexGroupDecoder.startsCompressed(
        text, first..<(run.upperBound - (run.upperBound - first) % 2), readingDeflate: true)
  }

  /// Whether `run` starts a rendering a logger may have wrapped: after `<` or `[`, at `0x`, or
  /// hex that begins as a compressed payload does. Numbers a line merely ends with (a table, a
  /// CSV row, a digest) are not joined with the next line's.
  static func startsARendering(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Bool {
    let first = pastBlanks(text, run)
    // Right after `<` or `[`, however little of it a line shows.
    if followsABracket(text, at: first) { return true }
    guard first + 2 <= run.upperBound else { return false }
    if text[first] == UInt8(ascii: "0") && text[first + 1] | 0x20 == UInt8(ascii: "x") { return true }
    return HexGroupDecoder.startsCompressed(
      text, first..<HexDigit.runEnd(in: text, from: first, to: run.upperBound))
  }

  /// Whether `run`, past its blanks, starts right after `<` or `[`: a `Data` description's or a
  /// byte list's first numbers, never a hex dump's offset.
  static func followsABracket(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Bool {
    followsABracket(text, at: pastBlanks(text, run))
  }

  /// Whether `<` or `[` stands just before `first`.
  private static func followsABracket(_ text: UnsafePointer<UInt8>, at first: Int) -> Bool {
    first > 0 && (text[first - 1] == UInt8(ascii: "<") || text[first - 1] == UInt8(ascii: "["))
  }

  /// Where `run` starts past its blanks.
  private static func pastBlanks(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Int {
    var first = run.lowerBound
    while first < run.upperBound && text[first] == 0x20 { first += 1 }
    return first
  }

  /// Where the rendering in `run` starts: past the end of the word before it that the run may
  /// start with (`payload 0x7B, …`: its `ad`), and past blanks.
  static func renderingStart(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Int {
    var first = run.lowerBound
    if first > 0 && continuesAWord(text[first - 1]) {
      while first < run.upperBound && text[first] != 0x20 { first += 1 }
    }
    while first < run.upperBound && text[first] == 0x20 { first += 1 }
    return first
  }

  /// Whether `byte`, right after a line's numbers, goes on with them as a word does: a letter,
  /// `_` or `-`.
  private static func continuesAWord(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
  }

  /// The pieces `decoders` read in the joined lines, placed on the text.
  func decode(_ text: UnsafePointer<UInt8>, with decoders: RunDecoders) -> [DecodedPiece] {
    let (joined, joinedOrigins) = ContinuationLines.joined(text, segments)
    let count = joinedOrigins.count
    var pieces: [DecodedPiece] = []
    joined.withUnsafeBufferPointer { buffer in
      var run = EncodedRun(range: 0..<count, kind: .numeric)
      run.isHex = buffer.prefix(count).allSatisfy { HexDigit.value($0) != 0xFF }
      decoders.decode(buffer.baseAddress!, count: count, run: run, into: &pieces)
    }
    for index in pieces.indices {
      let span = pieces[index].span
      pieces[index].span = joinedOrigins[span.lowerBound]..<joinedOrigins[span.upperBound - 1] + 1
      for byte in pieces[index].starts.indices {
        pieces[index].starts[byte] = Int32(joinedOrigins[Int(pieces[index].starts[byte])])
        pieces[index].ends[byte] = Int32(joinedOrigins[Int(pieces[index].ends[byte]) - 1] + 1)
      }
    }
    return pieces
  }
}

/// The lines that continue a run ending its line, as a wrapping logger writes them: what
/// ``WrappedPayload``, ``WrappedPercentRun`` and ``WrappedNumericRun`` step through, past the
/// layout that ``LineJunctionSearch/continuationLayout(_:lineHead:continuation:)`` reads.
enum ContinuationLines {
  /// Where the line after a line break starts.
  enum Next {
    /// The next line starts at this index.
    case line(Int)
    /// The text ends (or a lone `\r` ends the run) before another line.
    case end
    /// The next line may start past the text looked at.
    case unfinished
  }

  /// The bytes of the line holding `run` in `text` before the run, the prefix its continuations
  /// may repeat: a prefix never reaches into the run, whose own bytes a continuation may start
  /// with by chance (`0x22, 0x` on two lines of a byte list). `firstLineHead` when the line
  /// began before `text` (the stream keeps its head).
  static func head(
    _ text: UnsafePointer<UInt8>, run: Range<Int>, firstLineHead: UnsafeBufferPointer<UInt8>
  ) -> UnsafeBufferPointer<UInt8> {
    let lineStart = EncodedRun.last(0x0A, in: text, 0..<run.lowerBound).map { $0 + 1 } ?? 0
    return lineStart == 0 && !firstLineHead.isEmpty
      ? firstLineHead
      : UnsafeBufferPointer(
        start: text + lineStart, count: min(LineJunctionSearch.maxRepeatedPrefix, run.lowerBound - lineStart))
  }

  /// The start of the line after the break at `lineEnd` (`\n`, or `\r` before one) in
  /// `text[..<limit]`, `final` when the text ends at `limit`.
  static func next(_ text: UnsafePointer<UInt8>, after lineEnd: Int, limit: Int, final: Bool) -> Next {
    var next = lineEnd
    if text[next] == 0x0D {
      next += 1
      if next == limit { return final ? .end : .unfinished }
      guard text[next] == 0x0A else { return .end }
    }
    next += 1
    if next == limit { return final ? .end : .unfinished }
    return .line(next)
  }

  /// The line after a line break, past its layout.
  enum Continuation {
    /// The line's text starts at `start`, after the prefix it repeats (ending at `prefixEnd`)
    /// and its indentation.
    case line(prefixEnd: Int, start: Int)
    /// The text (or the run, at a lone `\r`) ends before another line.
    case end
    /// The next line may start past the text looked at.
    case unfinished
  }

  /// Reads the lines that continue a run one after another, as ``LineJunctionSearch`` does: the
  /// first against the line it continues, each later one against the first's prefix, so that a
  /// last piece that goes on after its prefix as the first line's text does (a number, then
  /// `", `) is not taken for more prefix.
  ///
  /// The first continuation's prefix may end with a number that is the lines' text: a message
  /// starting with one (`422 body=<7b22…`) whose next line starts with a number of a prefix's
  /// shape (`9 39717861`, `637 676d3432`). A reader that `trimsFirstNumber` ends that prefix
  /// before it; a reader that `readsFirstNumber` (as one that trims it does) tells whether the
  /// prefix it read ended with one (``firstPrefixEndsWithNumber``), so a caller reads the lines
  /// both ways.
  struct Reader {
    /// What the next line's prefix repeats: the first bytes of the line the run starts on, then
    /// the first continuation's prefix.
    private var head: UnsafeBufferPointer<UInt8>
    private var readFirst = false
    private let trimsFirstNumber: Bool
    private let readsFirstNumber: Bool
    /// Whether the first continuation's prefix ended with a number
    /// (``ContinuationLines/startOfEndingNumber(_:prefix:)``), when the reader reads it.
    private(set) var firstPrefixEndsWithNumber = false

    /// A reader of the lines after a line whose first bytes are `head`.
    init(head: UnsafeBufferPointer<UInt8>, trimsFirstNumber: Bool = false, readsFirstNumber: Bool = false) {
      self.head = head
      self.trimsFirstNumber = trimsFirstNumber
      self.readsFirstNumber = readsFirstNumber || trimsFirstNumber
    }

    /// A reader of the lines after `run` of `text`, whose line's first bytes are `firstLineHead`
    /// when that line began before `text` (see ``ContinuationLines/head(_:run:firstLineHead:)``).
    init(
      _ text: UnsafePointer<UInt8>, run: Range<Int>, firstLineHead: UnsafeBufferPointer<UInt8>,
      trimsFirstNumber: Bool = false, readsFirstNumber: Bool = false
    ) {
      self.init(
        head: ContinuationLines.head(text, run: run, firstLineHead: firstLineHead),
        trimsFirstNumber: trimsFirstNumber, readsFirstNumber: readsFirstNumber)
    }

    /// The line after the break at `lineEnd` in `text[..<limit]` (`final` when the text ends at
    /// `limit`), past the layout a wrapping logger put there.
    mutating func continuation(
      _ text: UnsafePointer<UInt8>, after lineEnd: Int, limit: Int, final: Bool
    ) -> Continuation {
      switch ContinuationLines.next(text, after: lineEnd, limit: limit, final: final) {
      case .end: return .end
      case .unfinished: return .unfinished
      case .line(let next):
        let layout = layout(text, of: next, limit: limit)
        return .line(prefixEnd: layout.prefixEnd, start: layout.indented)
      }
    }

    /// The layout of the line starting at `next` (below `limit`) in `text`: the end of the prefix
    /// it repeats and of the blanks after it
    /// (``LineJunctionSearch/continuationLayout(_:lineHead:continuation:)``), read only when the
    /// line may start with one (``mayStartWithLayout(_:after:)``).
    mutating func layout(_ text: UnsafePointer<UInt8>, of next: Int, limit: Int) -> (
      prefixEnd: Int, indented: Int
    ) {
      var layout = (prefixEnd: next, indented: next)
      if ContinuationLines.mayStartWithLayout(text[next], after: head.first) {
        layout = LineJunctionSearch.continuationLayout(
          text, lineHead: head, continuation: next..<min(limit, next + LineJunctionSearch.maxLayoutBytes))
      }
      if !readFirst {
        readFirst = true
        if readsFirstNumber,
          let number = ContinuationLines.startOfEndingNumber(text, prefix: next..<layout.prefixEnd)
        {
          firstPrefixEndsWithNumber = true
          if trimsFirstNumber { layout = (number, number) }
        }
        head = UnsafeBufferPointer(start: text + next, count: layout.prefixEnd - next)
      }
      return layout
    }
  }

  /// Where the number that `prefix` of `text` ends with starts, when it ends with one standing
  /// alone, after a blank, a `:`, `|` or `]` or at the line's start, and followed by blanks or
  /// those (`D app: 637 `, `1000 ms | 5 `, but not `10:00:00.003 ` or `[net 3/14] `).
  static func startOfEndingNumber(_ text: UnsafePointer<UInt8>, prefix: Range<Int>) -> Int? {
    func isSeparator(_ byte: UInt8) -> Bool {
      isBlank(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "]")
    }
    var index = prefix.upperBound
    while index > prefix.lowerBound && isSeparator(text[index - 1]) { index -= 1 }
    guard index < prefix.upperBound else { return nil }
    let numberEnd = index
    while index > prefix.lowerBound && isDigit(text[index - 1]) { index -= 1 }
    guard index < numberEnd, index == prefix.lowerBound || isSeparator(text[index - 1]) else { return nil }
    return index
  }

  /// Whether a line starting with `first` may start with a layout to skip, after a line (or
  /// prefix) starting with `headFirst`: one starting with a blank, with that byte, or with a
  /// digit where that is one (a counter or an hour of another width: `9:59:59 ` then
  /// `10:00:00 `). Any other has none, so its layout need not be read.
  @inline(__always)
  static func mayStartWithLayout(_ first: UInt8, after headFirst: UInt8?) -> Bool {
    guard let headFirst else { return isBlank(first) }
    return isBlank(first) || first == headFirst || (isDigit(first) && isDigit(headFirst))
  }

  /// The bytes of `segments` of `text` joined, followed by 8 zero bytes (the matcher's and the
  /// decoders' loads read past the end), and for each joined byte where it stands in `text`.
  static func joined(_ text: UnsafePointer<UInt8>, _ segments: [Range<Int>]) -> (
    bytes: [UInt8], origins: [Int]
  ) {
    var bytes: [UInt8] = []
    var origins: [Int] = []
    for segment in segments {
      bytes.append(contentsOf: UnsafeBufferPointer(start: text + segment.lowerBound, count: segment.count))
      origins.append(contentsOf: segment)
    }
    bytes.append(contentsOf: repeatElement(0, count: 8))
    return (bytes, origins)
  }

  /// Whether `byte` is a space or a tab.
  @inline(__always)
  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Whether `byte` breaks a line: `\n` or `\r`.
  @inline(__always)
  static func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
}

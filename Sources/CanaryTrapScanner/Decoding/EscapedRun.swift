/// Where bytes a program printed with backslash escapes stand in the text: `b'\x1f\x8b\x08…'` as
/// Python and Rust print bytes, `"\x1F\x8B…"` as Go, Ruby and nginx do. A run is the printable
/// text around its `\xHH` escapes, inside the quotes the literal opened with when it has them.
extension EncodedRun {
  /// The most printable bytes a run holds before its first escape and after its last, and
  /// between two of its escapes: farther from an escape, text is the log's own, which the main
  /// pass reads.
  static let escapedReach = 256

  /// Whether a byte may stand in an escaped run: printable ASCII, the blank included.
  @inline(__always)
  static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

  /// The first escaped run in `text[lower..<end]` whose first `\xHH` escape is at or after
  /// `from`, reaching back to `lower` at most. Backslashes are found with `memchr`, so text
  /// without `\` costs one pass over it, and text full of JSON's `\"` one test per backslash.
  static func nextEscaped(in text: UnsafePointer<UInt8>, from: Int, lower: Int, end: Int) -> EncodedRun? {
    var index = from
    while index + 4 <= end, let backslash = first(0x5C, in: text, index..<end) {
      guard backslash + 4 <= end else { return nil }
      if text[backslash + 1] == 0x5C {
        index = backslash + 2  // `\\`: an escaped backslash, whatever follows
        continue
      }
      guard text[backslash + 1] == UInt8(ascii: "x"), HexDigit.byte(in: text, at: backslash + 2) != nil else {
        index = backslash + 1
        continue
      }
      let (start, quote) = escapedRunStart(in: text, escape: backslash, lower: lower)
      return EncodedRun(
        range: start..<escapedRunEnd(in: text, escape: backslash, quote: quote, end: end), kind: .escaped)
    }
    return nil
  }

  /// Where the run holding the escape at `escape` starts: at the quote that opened it (and its
  /// `b`), which it then ends at, or ``escapedReach`` printable bytes back; a run starts with its
  /// opening, so that the next buffer's pass, resuming there, reads it again. The quote is that
  /// of a bytes literal (`b'` or `b"`, as Python and Rust print one, whose other quote is plain
  /// text: JSON's `"` inside `b'…'`), else the nearest unescaped `'` or `"` (nginx and Go escape
  /// their own).
  private static func escapedRunStart(in text: UnsafePointer<UInt8>, escape: Int, lower: Int) -> (
    start: Int, quote: UInt8?
  ) {
    var start = escape
    var nearest: (start: Int, quote: UInt8)?
    while start > max(lower, escape - escapedReach), isPrintable(text[start - 1]) {
      let byte = text[start - 1]
      if byte == 0x22 || byte == 0x27, !isEscaped(text, at: start - 1, lower: lower) {
        if start - 2 >= lower, text[start - 2] == UInt8(ascii: "b"),
          start - 3 < lower || !TextEscapes.isAlphanumeric(text[start - 3])
        {
          return (start - 2, byte)
        }
        if nearest == nil { nearest = (start - 1, byte) }
      }
      start -= 1
    }
    return nearest ?? (start, nil)
  }

  /// Whether the byte at `index` follows an odd number of backslashes (after `lower`).
  private static func isEscaped(_ text: UnsafePointer<UInt8>, at index: Int, lower: Int) -> Bool {
    var backslashes = 0
    while index - backslashes - 1 >= lower, text[index - backslashes - 1] == 0x5C { backslashes += 1 }
    return backslashes % 2 == 1
  }

  /// Where the run whose first escape is at `escape` ends: at the `quote` that opened it, at a
  /// byte that is not printable, or ``escapedReach`` bytes past its last escape.
  private static func escapedRunEnd(in text: UnsafePointer<UInt8>, escape: Int, quote: UInt8?, end: Int)
    -> Int
  {
    var index = escape
    var lastEscapeEnd = escape
    while index < end, index - lastEscapeEnd < escapedReach {
      let byte = text[index]
      guard isPrintable(byte), byte != quote else { return index }
      if byte == 0x5C, index + 1 < end, isPrintable(text[index + 1]) {
        let length = text[index + 1] == UInt8(ascii: "x") && index + 4 <= end ? 4 : 2
        index += length
        lastEscapeEnd = index
        continue
      }
      index += 1
    }
    return min(index, end)
  }

  /// The printable bytes touching `end` after `position`, up to ``escapedReach`` (and under
  /// `maxRun`): where an escaped run whose first escape is past `end` may start, kept for the
  /// next buffer.
  static func escapedTail(in text: UnsafePointer<UInt8>, from position: Int, end: Int, maxRun: Int)
    -> EncodedRun?
  {
    var start = end
    let limit = max(position, end - min(maxRun - 1, escapedReach))
    while start > limit, isPrintable(text[start - 1]) { start -= 1 }
    guard start < end else { return nil }
    return EncodedRun(range: start..<end, kind: .escaped)
  }
}

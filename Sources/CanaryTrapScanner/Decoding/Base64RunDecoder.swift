#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Base64 or base64url of a compressed payload (gzip, zlib, raw deflate, a zip archive, bzip2,
/// and the rest ``CompressedPayload`` opens), as analytics batches, crash envelopes in JSON
/// fields, signed cookies and attachments carry it.
///
/// Base64 of plain text is not decoded here: the forward `base64` literals find it, wrapped or
/// not. Both alphabets are named `base64` (most payloads' text is valid in both, so the
/// alphabet could not be named the same every run). A run is cut after `=` padding
/// (`token=H4sI…`), a JSON-escaped `\/` reads as `/` (and `\n`, `\r`, the line breaks of a payload
/// wrapped before it went into a JSON string, as nothing), and a percent-encoded run (`%2B`,
/// `%2F`, `%3D`, as a SAML request in a URL carries it) is read decoded and named
/// `… → base64 → percent`.
struct Base64RunDecoder: RunDecoder {
  var kind: EncodedRun.Kind { .base64 }

  /// The fewest characters read: a gzip stream holding anything is longer.
  static let minimumLength = 24

  static let values: [UInt8] = (0..<256).map { value in
    switch UInt8(value) {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(value) - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(value) - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(value) - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
    case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
    default: 0xFF
    }
  }

  func decode(_ text: UnsafePointer<UInt8>, count: Int, run: Range<Int>, into pieces: inout [DecodedPiece]) {
    guard memchr(text + run.lowerBound, 0x25, run.count) != nil else {
      Self.split(text, run) { piece(text, $0, into: &pieces) }
      return
    }
    // Percent-encoded base64 (a SAML request in a URL, a cookie): the run is read decoded, and
    // each piece placed back on the text it came from.
    var plain: [UInt8] = []
    var origins: [Int] = []
    plain.reserveCapacity(run.count)
    origins.reserveCapacity(run.count + 1)
    var index = run.lowerBound
    while index < run.upperBound {
      origins.append(index)
      if let byte = HexDigit.percentEscape(in: text, at: index, end: run.upperBound) {
        plain.append(byte)
        index += 3
      } else {
        plain.append(text[index])
        index += 1
      }
    }
    origins.append(run.upperBound)
    plain.append(contentsOf: repeatElement(0, count: 8))
    plain.withUnsafeBufferPointer { buffer in
      let decoded = buffer.baseAddress!
      Self.split(decoded, 0..<origins.count - 1) { range in
        let before = pieces.count
        piece(decoded, range, into: &pieces)
        guard pieces.count > before else { return }
        let span = origins[range.lowerBound]..<origins[range.upperBound]
        if span.count != range.count { pieces[before].outer = .percent }
        pieces[before].span = span
      }
    }
  }

  /// Appends the pieces of `text[0..<count]` (lines of a ``WrappedPayload`` joined) that start
  /// before `seam` and end after it; their spans are in `text`.
  func decodePieces(
    _ text: UnsafePointer<UInt8>, count: Int, crossing seam: Int, into pieces: inout [DecodedPiece]
  ) {
    Self.split(text, 0..<count) { range in
      if range.lowerBound < seam && range.upperBound > seam { piece(text, range, into: &pieces) }
    }
  }

  /// Calls `body` with each piece of `text[run]` long enough to read: a piece ends after its
  /// padding, or at a backslash that escapes none of `/`, `n`, `r`. Only `=` and `\` are looked at,
  /// each found with `memchr`: most runs hold neither, or one `=` after a key.
  private static func split(_ text: UnsafePointer<UInt8>, _ run: Range<Int>, _ body: (Range<Int>) -> Void) {
    let end = run.upperBound
    var start = run.lowerBound
    var from = run.lowerBound
    var equals = -1
    var backslash = -1
    while true {
      if equals < from { equals = position(of: UInt8(ascii: "="), in: text, from..<end) }
      if backslash < from { backslash = position(of: UInt8(ascii: "\\"), in: text, from..<end) }
      var index = min(equals, backslash)
      if index == backslash, index + 1 < end, Self.isEscapeInPiece(text[index + 1]) {
        from = index + 1  // `\/`, `\n`, `\r`: part of the piece
        continue
      }
      while index < end && text[index] == UInt8(ascii: "=") { index += 1 }
      if index - start >= Self.minimumLength { body(start..<index) }
      while index < end && text[index] == UInt8(ascii: "\\") { index += 1 }
      guard index < end else { return }
      start = index
      from = index
    }
  }

  /// Whether a backslash before `byte` is part of a piece: JSON's `\/` for a slash, or an
  /// escaped line break.
  @inline(__always)
  private static func isEscapeInPiece(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || isEscapedLineBreak(byte)
  }

  /// Whether a backslash before `byte` escapes a line break (`\n`, `\r`): layout of a payload
  /// wrapped before it was put in a JSON string (as Python's `encodebytes` and Foundation's
  /// `.lineLength76Characters` wrap it).
  @inline(__always)
  private static func isEscapedLineBreak(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "n") || byte == UInt8(ascii: "r")
  }

  /// The first index of `byte` in `text[range]`, or `range.upperBound` when it holds none.
  @inline(__always)
  private static func position(of byte: UInt8, in text: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int {
    EncodedRun.first(byte, in: text, range) ?? range.upperBound
  }

  private func piece(_ text: UnsafePointer<UInt8>, _ range: Range<Int>, into pieces: inout [DecodedPiece]) {
    // Hex of a compressed payload is a base64 run too when a key or other text touches it.
    if let hex = HexGroupDecoder.payload(text, startingAt: range) {
      pieces.append(hex)
      return
    }
    // Only a payload whose first bytes a compressed stream may start with is decoded whole;
    // tested first, as nearly every run (a token, an id, a digest) fails it.
    guard Self.startsCompressed(text, range) else {
      // Base64 of a payload's base64 (a Kubernetes secret holding one, a Helm release) is
      // decoded once: the payload is opened in the text it decodes to, `gzip → base64 → base64`.
      if Self.startsWithBase64OfHeader(text, range), let bytes = Self.decode(text, range, limit: .max) {
        pieces.append(DecodedPiece(bytes: bytes, span: range, step: .base64))
      }
      return
    }
    let hexOnly = !range.contains { index in
      let byte = text[index]
      return !(byte >= 0x30 && byte <= 0x39 || (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }
    // Plain hex (a trace id, a digest) is left to the forward `hex` literals.
    guard !hexOnly, let bytes = Self.decode(text, range, limit: .max) else { return }
    // Named `base64` in either alphabet: a payload's text often has none of `+/-_`, so the
    // alphabet could not be named the same in every run. Both are read in one piece: a payload
    // that ran into text using the other one's characters (a full last line joined with the next
    // log line's `2026-12-06T…`, a run written straight before `-end`) decodes to the payload's
    // bytes followed by a few stray ones, where refusing the piece hid the whole payload.
    pieces.append(DecodedPiece(bytes: bytes, span: range, step: .base64, compressed: true))
  }

  /// Whether a piece of `text[run]` (from its start or after `=` padding) starts with the base64
  /// of a gzip, zlib or zip header, or of a ``HeaderedFormat``'s: a payload the pass would open.
  static func holdsCompressedHeader(_ text: UnsafePointer<UInt8>, _ run: Range<Int>) -> Bool {
    var start = run.lowerBound
    while start + 4 <= run.upperBound {
      if let head = decode(text, start..<(start + 4), limit: 4), head.count == 3,
        head[0] == 0x1F && head[1] == 0x8B || CompressedPayload.isZlibHeader(head[0], head[1])
          || head[0] == 0x50 && head[1] == 0x4B && head[2] == 0x03
      {
        return true
      }
      if head(text, start..<run.upperBound, satisfies: { HeaderedFormat($0) != nil })
        || startsWithBase64OfHeader(text, start..<run.upperBound)
      {
        return true
      }
      guard let padding = (start..<run.upperBound).first(where: { text[$0] == UInt8(ascii: "=") }) else {
        break
      }
      start = padding
      while start < run.upperBound && text[start] == UInt8(ascii: "=") { start += 1 }
    }
    return false
  }

  /// Whether `text[range]` decodes to the base64 of a gzip, zlib or zip header, or of a
  /// ``HeaderedFormat``'s (``CompressedPayload/startsWithHeader(_:)``): the first four
  /// characters, which give the payload's first two bytes, are tested before the head is decoded.
  static func startsWithBase64OfHeader(_ text: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
    guard range.count >= minimumLength else { return false }
    let values = Self.values
    let (a, b, c, d) = (
      values[Int(text[range.lowerBound])], values[Int(text[range.lowerBound + 1])],
      values[Int(text[range.lowerBound + 2])], values[Int(text[range.lowerBound + 3])]
    )
    guard a | b | c | d != 0xFF else { return false }
    // The values of the inner base64's first three characters.
    let (e, f, g) = (values[Int(a << 2 | b >> 4)], values[Int(b << 4 | c >> 2)], values[Int(c << 6 | d)])
    guard e | f | g != 0xFF,
      CompressedPayload.mayStartWithHeader(first: e << 2 | f >> 4, second: f << 4 | g >> 2)
    else { return false }
    // 16 characters of the inner base64 give its first 12 bytes, as a bzip2 header needs.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { characters in
      var count = 0
      let valid = forEachByte(text, range, limit: 22) { byte in
        characters[count] = byte
        count += 1
      }
      guard valid, count >= 16 else { return false }
      return head(UnsafePointer(characters.baseAddress!), 0..<16) { CompressedPayload.startsWithHeader($0) }
    }
  }

  /// Whether the first 16 characters of `text[range]` decode to bytes a compressed stream may
  /// start with (``CompressedPayload/mayStart(_:)``).
  static func startsCompressed(_ text: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
    // The first two bytes, from the first three characters when they are plain, rule out
    // nearly every run (a token, an id) before its head is decoded.
    if range.count >= 3 {
      let values = Self.values
      let first = values[Int(text[range.lowerBound])]
      let second = values[Int(text[range.lowerBound + 1])]
      let third = values[Int(text[range.lowerBound + 2])]
      if first | second | third != 0xFF,
        !CompressedPayload.mayStart(first: first << 2 | second >> 4, second: second << 4 | third >> 2)
      {
        return false
      }
    }
    return head(text, range, satisfies: CompressedPayload.mayStart)
  }

  /// Whether the first 16 characters of `text[range]` decode (see ``decodeHead(_:_:into:)``) to
  /// bytes that pass `test`.
  @inline(__always)
  private static func head(
    _ text: UnsafePointer<UInt8>, _ range: Range<Int>, satisfies test: (UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { head in
      decodeHead(text, range, into: head).map { test(UnsafeBufferPointer(rebasing: head[..<$0])) } ?? false
    }
  }

  /// Decodes the first 16 characters of `range` (skipping backslashes, escaped line breaks and
  /// padding) into `head` (12 bytes) and returns how many bytes it holds; `nil` at a character
  /// outside the alphabets.
  static func decodeHead(
    _ text: UnsafePointer<UInt8>, _ range: Range<Int>, into head: UnsafeMutableBufferPointer<UInt8>
  ) -> Int? {
    var written = 0
    let valid = forEachByte(text, range, limit: 16) { byte in
      head[written] = byte
      written += 1
    }
    return valid ? written : nil
  }

  /// Decodes the characters of `range` (skipping backslashes, escaped line breaks and padding),
  /// stopping after `limit` characters; `nil` at a character outside the alphabets.
  static func decode(_ text: UnsafePointer<UInt8>, _ range: Range<Int>, limit: Int) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(min(range.count, limit) * 3 / 4 + 3)
    return forEachByte(text, range, limit: limit) { output.append($0) } ? output : nil
  }

  /// Hands each byte the first `limit` characters of `range` decode to (skipping backslashes,
  /// escaped line breaks and padding) to `body`; false at a character outside the alphabets.
  @inline(__always)
  private static func forEachByte(
    _ text: UnsafePointer<UInt8>, _ range: Range<Int>, limit: Int, _ body: (UInt8) -> Void
  ) -> Bool {
    var accumulator: UInt32 = 0
    var bits = 0
    var taken = 0
    let values = Self.values
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = text[index]
      index += 1
      if byte == UInt8(ascii: "=") { continue }
      if byte == UInt8(ascii: "\\") {
        // An escaped line break is layout; `\/` is a slash.
        if index < range.upperBound && isEscapedLineBreak(text[index]) { index += 1 }
        continue
      }
      let value = values[Int(byte)]
      guard value != 0xFF else { return false }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        body(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
      taken += 1
      if taken == limit { break }
    }
    return true
  }
}

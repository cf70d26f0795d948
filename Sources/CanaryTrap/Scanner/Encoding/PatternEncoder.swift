import CanaryTrapPrimitives

/// Turns a canary into every literal the scanner searches for, one list per enabled encoding.
enum PatternEncoder {
  /// Every distinct literal for `canary`, most specific encodings first; a byte string that two
  /// encodings produce is kept once, under the first. `raw` is always first when the value itself
  /// is searched (raw, case-insensitive or fragments enabled). Single encodings come first, then
  /// composed chains searched as whole literals (base64 of base64, percent-encoded base64), then
  /// the anchors of escaped forms in binary wrappers.
  ///
  /// Anchors are the canary's longest escape-free run in each enabled binary wrapper (base64
  /// and base64url at three alignments, hex, UTF-16 in both byte orders), for canaries some
  /// enabled text escape changes. A few literals per canary stand for every escape × wrapper
  /// pair: a hit is confirmed by re-encoding each escaped form around it.
  static func patterns(for canary: Canary, encodings: Set<ScanEncoding>) -> [ScanPattern] {
    literals(for: canary, encodings: encodings).literals.map {
      ScanPattern(canary: canary, chain: $0.chain, bytes: $0.bytes, isAnchor: $0.isAnchor)
    }
  }

  /// One literal of ``CanaryLiterals``.
  struct Literal {
    var chain: EncodingChain
    var bytes: [UInt8]
    var isAnchor: Bool
    /// For a base64 or base64url anchor, the alignment its core was made at; otherwise 0.
    var alignment = 0
  }

  /// A canary's literals, with what the matcher confirms its anchors against, each built once.
  struct CanaryLiterals {
    /// The literals ``patterns(for:encodings:)`` lists, in its order.
    var literals: [Literal] = []
    /// Each enabled text escape that changes the value, in ``textEscapes`` order, with the
    /// variants ``literals(of:bytes:encoding:)`` makes for it.
    var escapes: [(ScanEncoding, [[UInt8]])] = []
    /// The run anchors are made of (``anchorRange(of:)``), when the canary has anchors.
    var anchor: [UInt8]? = nil

    /// The length of the longest of the forms ``forms(of:escapes:)`` makes for `canary`.
    func longestForm(of canary: Canary) -> Int {
      escapes.lazy.flatMap { $0.1 }.reduce(canary.value.utf8.count) { max($0, $1.count) }
    }
  }

  /// The literals of `canary` (see ``patterns(for:encodings:)``), built once for the matcher.
  static func literals(for canary: Canary, encodings: Set<ScanEncoding>) -> CanaryLiterals {
    let value = canary.bytes
    // A few dozen literals: a linear search beats hashing them, and a signature of each (its
    // length and first and last bytes) skips most comparisons.
    var seen: [[UInt8]] = []
    var signatures: [UInt64] = []
    seen.reserveCapacity(96)
    signatures.reserveCapacity(96)
    func signature(_ bytes: [UInt8]) -> UInt64 {
      guard let first = bytes.first, let last = bytes.last else { return 0 }
      return UInt64(bytes.count) << 16 | UInt64(first) << 8 | UInt64(last)
    }
    var result = CanaryLiterals()
    result.literals.reserveCapacity(96)
    let searchesValue = !encodings.isDisjoint(with: [.raw, .caseInsensitive, .fragment])
    if searchesValue {
      result.literals.append(Literal(chain: .single(.raw), bytes: value, isAnchor: false))
    }
    seen.append(value)  // never report an encoding identical to the raw value under another name
    signatures.append(signature(value))
    func add(_ chain: EncodingChain, _ bytes: [UInt8], isAnchor: Bool = false, alignment: Int = 0) {
      guard !bytes.isEmpty else { return }
      let key = signature(bytes)
      for index in signatures.indices where signatures[index] == key && seen[index] == bytes { return }
      seen.append(bytes)
      signatures.append(key)
      result.literals.append(Literal(chain: chain, bytes: bytes, isAnchor: isAnchor, alignment: alignment))
    }
    var digests = DigestCache(value: value)
    var standardCores: [[UInt8]]? = nil
    for encoding in ScanEncoding.allCases where encodings.contains(encoding) {
      // An escape that leaves every byte of the value as it is adds nothing: skip building it.
      let isEscape = isTextEscape(encoding)
      if isEscape && !changes(encoding, value) { continue }
      if let hexDigest = digests.digest(for: encoding) {
        for bytes in hexDigest.isHex ? digestHex(hexDigest.bytes) : digestBase64(hexDigest.bytes) {
          add(.single(encoding), bytes)
        }
        continue
      }
      let variants = literals(of: canary.value, bytes: value, encoding: encoding)
      if isEscape { result.escapes.append((encoding, variants)) }
      if encoding == .base64 { standardCores = variants }
      for bytes in variants { add(.single(encoding), bytes) }
    }
    for (chain, bytes) in composedLiterals(of: value, encodings: encodings, standardCores: standardCores) {
      add(chain, bytes)
    }
    // Anchors, for canaries some enabled escape changes (see patterns(for:encodings:)).
    if !result.escapes.isEmpty, let range = anchorRange(of: canary) {
      let anchor = Array(value[range])
      result.anchor = anchor
      for wrapper in anchorWrappers where encodings.contains(wrapper) {
        guard wrapper == .base64 || wrapper == .base64url else {
          for bytes in wrapped(anchor, in: wrapper) { add(.single(wrapper), bytes, isAnchor: true) }
          continue
        }
        // `wrapped`'s cores, one per alignment (an anchor is long enough for all three).
        for alignment in 0..<3 {
          let alphabet = wrapper == .base64 ? Base64Patterns.standardAlphabet : Base64Patterns.urlAlphabet
          let core = Base64Patterns.core(of: anchor, alignment: alignment, alphabet: alphabet)
          add(.single(wrapper), core, isAnchor: true, alignment: alignment)
        }
      }
    }
    return result
  }

  /// Chains searched as whole literals: standard base64 of a base64 core (three alignments
  /// each, nine in all), and a base64 core percent-encoded where it holds `+` or `/`.
  /// `standardCores` are the value's own base64 cores, when already built.
  static func composedLiterals(
    of value: [UInt8], encodings: Set<ScanEncoding>, standardCores: [[UInt8]]? = nil
  ) -> [(EncodingChain, [UInt8])] {
    guard encodings.contains(.base64) else { return [] }
    let inner = standardCores ?? Base64Patterns.cores(of: value, alphabet: Base64Patterns.standardAlphabet)
    var result: [(EncodingChain, [UInt8])] = []
    for core in inner {
      for outer in Base64Patterns.cores(of: core, alphabet: Base64Patterns.standardAlphabet) {
        result.append((base64OfBase64, outer))
      }
    }
    if encodings.contains(.percent) {
      for core in inner where core.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) {
        result.append((percentOfBase64, TextEscapes.percent(core, digits: TextEscapes.upperHex)))
        result.append((percentOfBase64, TextEscapes.percent(core, digits: TextEscapes.lowerHex)))
      }
    }
    return result
  }

  private static let base64OfBase64 = EncodingChain([.base64, .base64])
  private static let percentOfBase64 = EncodingChain([.base64, .percent])

  /// Whether `encoding` is one of ``textEscapes``.
  static func isTextEscape(_ encoding: ScanEncoding) -> Bool {
    switch encoding {
    case .percent, .form, .doublePercent, .jsonEscaped, .htmlEntity, .quotedPrintable: true
    default: false
    }
  }

  /// The text escapes an anchor hit is confirmed against, in naming order.
  static let textEscapes: [ScanEncoding] = [
    .percent, .form, .doublePercent, .jsonEscaped, .htmlEntity, .quotedPrintable,
  ]
  /// The binary wrappers searched around escaped forms through anchors.
  static let anchorWrappers: [ScanEncoding] = [.base64, .base64url, .hex, .utf16le, .utf16be]

  /// Bytes no text escape changes: letters, digits and `-._`.
  static func isEscapeFree(_ byte: UInt8) -> Bool {
    TextEscapes.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "_")
  }

  /// Whether text escape `escape` writes any byte of `value` differently (in any of its
  /// variants); when it does not, every literal ``literals(of:bytes:encoding:)`` makes for it is
  /// `value` itself. Each rule restates the bytes the escape keeps; `PatternSetGoldenTests` pins
  /// the resulting pattern set.
  static func changes(_ escape: ScanEncoding, _ value: [UInt8]) -> Bool {
    let changed: [Bool]
    switch escape {
    case .percent, .doublePercent: changed = changedByPercent
    case .form: changed = changedByForm
    case .jsonEscaped: changed = changedByJSON
    case .htmlEntity: changed = changedByHTML
    case .quotedPrintable: changed = changedByQuotedPrintable
    default: return true
    }
    return changed.withUnsafeBufferPointer { changed in
      value.withUnsafeBufferPointer { value in value.contains { changed[Int($0)] } }
    }
  }

  /// For each byte, whether `escape` writes it differently in any of its variants.
  private static func changesByte(_ escape: ScanEncoding, _ byte: UInt8) -> Bool {
    switch escape {
    case .percent, .doublePercent:
      // Every variant keeps the unreserved set; `%` itself is always escaped, so twice-percent
      // equals the value exactly when once-percent does.
      return !(isEscapeFree(byte) || byte == UInt8(ascii: "~"))
    case .form: return !(isEscapeFree(byte) || byte == UInt8(ascii: "*"))
    case .jsonEscaped:
      // Printable ASCII is written as is, but for `"`, `\`, `/` (slash variant) and `<>&` (Go).
      return !(0x20...0x7E).contains(byte) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "&")
    case .htmlEntity:
      // ASCII is written as is but for the markup characters and `/` (slash variant); numeric
      // styles write every non-ASCII scalar as a reference.
      return byte >= 0x80 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<")
        || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "/")
    case .quotedPrintable:
      return !((0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=") || byte == 0x20 || byte == 0x09)
    default: return true
    }
  }

  /// ``changesByte(_:_:)`` of `escape` for every byte value, looked up by the byte.
  private static func changedBytes(_ escape: ScanEncoding) -> [Bool] {
    (0...255).map { changesByte(escape, UInt8($0)) }
  }
  private static let changedByPercent = changedBytes(.percent)
  private static let changedByForm = changedBytes(.form)
  private static let changedByJSON = changedBytes(.jsonEscaped)
  private static let changedByHTML = changedBytes(.htmlEntity)
  private static let changedByQuotedPrintable = changedBytes(.quotedPrintable)

  /// The shortest anchor searched, and how many identifying bytes it must hold.
  static let minAnchorLength = 16

  /// The canary's longest escape-free run, when it is at least ``minAnchorLength`` bytes long
  /// and holds ``DistinctiveBytes/required`` identifying bytes; `nil` otherwise.
  static func anchorRange(of canary: Canary) -> Range<Int>? {
    let value = canary.bytes
    var best: Range<Int>? = nil
    var start = 0
    for index in 0...value.count {
      if index < value.count && isEscapeFree(value[index]) { continue }
      if index - start > (best?.count ?? 0) { best = start..<index }
      start = index + 1
    }
    guard let best, best.count >= minAnchorLength else { return nil }
    let counts = DistinctiveBytes.prefixCounts(of: value, shape: canary.shape)
    guard counts[best.upperBound] - counts[best.lowerBound] >= Int32(DistinctiveBytes.required) else {
      return nil
    }
    return best
  }

  /// The forms of the value an anchor hit is confirmed against: the raw value first, then each
  /// enabled text escape's variants whose bytes differ from every earlier form.
  static func escapedForms(of canary: Canary, encodings: Set<ScanEncoding>) -> [(ScanEncoding, [UInt8])] {
    let value = canary.bytes
    let escapes = textEscapes.filter { encodings.contains($0) && changes($0, value) }.map {
      ($0, literals(of: canary.value, bytes: value, encoding: $0))
    }
    return forms(of: value, escapes: escapes)
  }

  /// The raw `value`, then each of `escapes`' variants that differs from every earlier form.
  static func forms(of value: [UInt8], escapes: [(ScanEncoding, [[UInt8]])]) -> [(ScanEncoding, [UInt8])] {
    var forms: [(ScanEncoding, [UInt8])] = [(.raw, value)]
    for (escape, variants) in escapes {
      for bytes in variants where !forms.contains(where: { $0.1 == bytes }) {
        forms.append((escape, bytes))
      }
    }
    return forms
  }

  /// `bytes` in a binary wrapper: base64 cores at each alignment, lower-case hex, or UTF-16.
  static func wrapped(_ bytes: [UInt8], in wrapper: ScanEncoding) -> [[UInt8]] {
    switch wrapper {
    case .base64: Base64Patterns.cores(of: bytes, alphabet: Base64Patterns.standardAlphabet)
    case .base64url: Base64Patterns.cores(of: bytes, alphabet: Base64Patterns.urlAlphabet)
    case .hex: [TextEscapes.hex(bytes, digits: TextEscapes.lowerHex)]
    case .utf16le, .utf16be: [utf16(bytes, bigEndian: wrapper == .utf16be)]
    default: []
    }
  }

  /// The UTF-16 code units of UTF-8 `bytes`, two bytes each.
  static func utf16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
    utf16(String(decoding: bytes, as: UTF8.self), bigEndian: bigEndian)
  }

  /// The UTF-16 code units of `string`, two bytes each.
  static func utf16(_ string: String, bigEndian: Bool) -> [UInt8] {
    // ASCII, as most canaries are: each byte is one code unit with a zero high byte.
    if let ascii = string.utf8.withContiguousStorageIfAvailable({ bytes in
      bytes.allSatisfy { $0 < 0x80 } ? asciiUTF16(bytes, bigEndian: bigEndian) : nil
    }), let ascii {
      return ascii
    }
    var output: [UInt8] = []
    output.reserveCapacity(string.utf8.count * 2)
    for unit in string.utf16 {
      let high = UInt8(truncatingIfNeeded: unit >> 8)
      let low = UInt8(truncatingIfNeeded: unit)
      output.append(bigEndian ? high : low)
      output.append(bigEndian ? low : high)
    }
    return output
  }

  /// The UTF-16 code units of ASCII `bytes`, two bytes each.
  private static func asciiUTF16(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: bytes.count * 2) { output, count in
      let low = bigEndian ? 1 : 0
      for index in bytes.indices {
        output[2 &* index &+ low] = bytes[index]
        output[2 &* index &+ 1 &- low] = 0
      }
      count = bytes.count * 2
    }
  }

  /// The literals of one encoding, possibly with duplicates or the raw value among them.
  static func literals(of string: String, bytes value: [UInt8], encoding: ScanEncoding) -> [[UInt8]] {
    let upper = TextEscapes.upperHex
    let lower = TextEscapes.lowerHex
    switch encoding {
    case .raw, .caseInsensitive, .fragment:
      return []
    case .percent:
      return [TextEscapes.percent(value, digits: upper), TextEscapes.percent(value, digits: lower)]
        + TextEscapes.percentKeptSets.map { TextEscapes.percent(value, digits: upper, keeping: $0) }
    case .form:
      return [TextEscapes.form(value, digits: upper), TextEscapes.form(value, digits: lower)]
    case .doublePercent:
      let twice = { (once: [UInt8]) in once.flatMap { $0 == UInt8(ascii: "%") ? Array("%25".utf8) : [$0] } }
      return [
        twice(TextEscapes.percent(value, digits: upper)), twice(TextEscapes.percent(value, digits: lower)),
      ]
    case .jsonEscaped:
      return [
        TextEscapes.json(string, slash: false, html: false, asciiOnly: false),
        TextEscapes.json(string, slash: true, html: false, asciiOnly: false),
        TextEscapes.json(string, slash: false, html: true, asciiOnly: false),
        TextEscapes.json(string, slash: false, html: true, asciiOnly: true),
        TextEscapes.json(string, slash: false, html: false, asciiOnly: true),
        TextEscapes.json(string, slash: true, html: false, asciiOnly: true, digits: upper),
      ]
    case .htmlEntity:
      return [false, true].flatMap { slash in
        [
          TextEscapes.html(string, style: .named, slash: slash),
          TextEscapes.html(string, style: .named, slash: slash, apos: true),
          TextEscapes.html(string, style: .decimal, slash: slash),
          TextEscapes.html(string, style: .hexLower, slash: slash),
          TextEscapes.html(string, style: .hexUpper, slash: slash),
        ]
      } + [
        // XML text as most writers escape it: quotes left alone.
        TextEscapes.html(string, style: .named, slash: false, escaping: "&<>"),
        TextEscapes.html(string, style: .named, slash: false, escaping: "&<"),
      ]
    case .base64:
      return Base64Patterns.cores(of: value, alphabet: Base64Patterns.standardAlphabet)
    case .base64url:
      return Base64Patterns.cores(of: value, alphabet: Base64Patterns.urlAlphabet)
    case .base32:
      return Base32Patterns.cores(of: value)
    case .quotedPrintable:
      return [TextEscapes.quotedPrintable(value)]
    case .hex:
      return [TextEscapes.hex(value, digits: lower), TextEscapes.hex(value, digits: upper)]
    case .utf16le: return [utf16(string, bigEndian: false)]
    case .utf16be: return [utf16(string, bigEndian: true)]
    case .sha256Hex: return digestHex(SHA256.digest(value))
    case .sha256Base64: return digestBase64(SHA256.digest(value))
    case .sha512Hex: return digestHex(SHA512.digest(value))
    case .sha512Base64: return digestBase64(SHA512.digest(value))
    case .sha384Hex: return digestHex(SHA512.digest384(value))
    case .sha384Base64: return digestBase64(SHA512.digest384(value))
    case .sha1Hex: return digestHex(SHA1.digest(value))
    case .sha1Base64: return digestBase64(SHA1.digest(value))
    case .md5Hex: return digestHex(MD5.digest(value))
    case .md5Base64: return digestBase64(MD5.digest(value))
    }
  }

  /// The value's digests, each computed once for its hex and base64 encodings.
  struct DigestCache {
    let value: [UInt8]
    /// The digests computed, by the ordinal of their hex encoding.
    private var computed: [[UInt8]?] = Array(repeating: nil, count: ScanEncoding.allCases.count)

    init(value: [UInt8]) { self.value = value }

    /// The digest behind a digest encoding (keyed by its hex encoding) and whether `encoding`
    /// writes it in hex; `nil` for encodings that are not digests.
    mutating func digest(for encoding: ScanEncoding) -> (bytes: [UInt8], isHex: Bool)? {
      let key: ScanEncoding
      let isHex: Bool
      switch encoding {
      case .sha256Hex, .sha512Hex, .sha384Hex, .sha1Hex, .md5Hex: (key, isHex) = (encoding, true)
      case .sha256Base64: (key, isHex) = (.sha256Hex, false)
      case .sha512Base64: (key, isHex) = (.sha512Hex, false)
      case .sha384Base64: (key, isHex) = (.sha384Hex, false)
      case .sha1Base64: (key, isHex) = (.sha1Hex, false)
      case .md5Base64: (key, isHex) = (.md5Hex, false)
      default: return nil
      }
      if let bytes = computed[key.ordinal] { return (bytes, isHex) }
      let bytes: [UInt8]
      switch key {
      case .sha256Hex: bytes = SHA256.digest(value)
      case .sha512Hex: bytes = SHA512.digest(value)
      case .sha384Hex: bytes = SHA512.digest384(value)
      case .sha1Hex: bytes = SHA1.digest(value)
      default: bytes = MD5.digest(value)
      }
      computed[key.ordinal] = bytes
      return (bytes, isHex)
    }
  }

  static func digestHex(_ digest: [UInt8]) -> [[UInt8]] {
    [
      TextEscapes.hex(digest, digits: TextEscapes.lowerHex),
      TextEscapes.hex(digest, digits: TextEscapes.upperHex),
    ]
  }

  /// A digest's base64 and base64url, without padding so both padded and unpadded forms match.
  static func digestBase64(_ digest: [UInt8]) -> [[UInt8]] {
    [
      Base64Patterns.encode(digest, alphabet: Base64Patterns.standardAlphabet, padded: false),
      Base64Patterns.encode(digest, alphabet: Base64Patterns.urlAlphabet, padded: false),
    ]
  }
}

import CanaryTrapPrimitives

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns a canary into every literal the scanner searches for, one list per enabled encoding.
package enum PatternEncoder {
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
  package static func patterns(for canary: Canary, encodings: Set<ScanEncoding>) -> [ScanPattern] {
    let generated = literals(for: canary, encodings: encodings)
    return generated.literals.map {
      ScanPattern(canary: canary, chain: $0.chain, bytes: generated.bytes(of: $0), isAnchor: $0.isAnchor)
    }
  }

  /// One literal of ``CanaryLiterals``: its encoding, and where its bytes lie in
  /// ``CanaryLiterals/storage``.
  struct Literal {
    /// The outermost step of the literal's chain.
    var encoding: ScanEncoding
    /// For a composed chain (base64 of base64, percent-encoded base64), its inner step.
    var inner: ScanEncoding? = nil
    var start: Int
    var count: Int
    var isAnchor = false
    /// For a base64 or base64url anchor, the alignment its core was made at; otherwise 0.
    var alignment = 0

    /// The literal's chain, innermost step first.
    var chain: EncodingChain { inner.map { EncodingChain([$0, encoding]) } ?? .single(encoding) }
  }

  /// A canary's literals, with what the matcher confirms its anchors against, each built once.
  ///
  /// The literals' bytes lie back to back in one buffer, each encoder appending to it, so that a
  /// canary's few dozen literals cost a few allocations rather than one each: a set of 100,000
  /// canaries builds some four million literals.
  struct CanaryLiterals {
    /// The literals ``patterns(for:encodings:)`` lists, in its order.
    var literals: [Literal] = []
    /// Every literal's bytes, and the raw value's first even when it is not searched.
    private(set) var storage: [UInt8] = []
    /// Each enabled text escape that changes the value, in ``textEscapes`` order, with the
    /// variants ``escapedVariants(of:bytes:escape:)`` makes for it.
    var escapes: [(ScanEncoding, [[UInt8]])] = []
    /// The run anchors are made of (``anchorRange(of:)``), when the canary has anchors.
    var anchor: [UInt8]? = nil
    /// The bytes kept so far, the raw value's first: a later byte string equal to one of them is
    /// dropped. A few dozen: a linear search beats hashing them, and a signature of each (its
    /// length and first and last bytes) skips most comparisons.
    private var kept: [Range<Int>] = []
    private var signatures: [UInt64] = []

    /// Starts with `value`, listed as the `raw` literal when `searchesValue`.
    init(value: [UInt8], searchesValue: Bool) {
      storage.reserveCapacity(value.count * 48 + 256)
      literals.reserveCapacity(96)
      kept.reserveCapacity(96)
      signatures.reserveCapacity(96)
      storage += value
      kept.append(0..<value.count)
      signatures.append(signature(of: 0..<value.count))
      if searchesValue { literals.append(Literal(encoding: .raw, start: 0, count: value.count)) }
    }

    /// The bytes of `literal`.
    func bytes(of literal: Literal) -> [UInt8] {
      Array(storage[literal.start..<(literal.start + literal.count)])
    }

    /// The length of the longest of the forms ``forms(of:escapes:)`` makes for `canary`.
    func longestForm(of canary: Canary) -> Int {
      escapes.lazy.flatMap { $0.1 }.reduce(canary.value.utf8.count) { max($0, $1.count) }
    }

    /// Lists the bytes `write` appends to ``storage`` as a literal of `encoding`, unless they are
    /// empty or equal to bytes kept before (never report an encoding identical to the raw value,
    /// or to a more specific one, under another name).
    mutating func add(
      _ encoding: ScanEncoding, over inner: ScanEncoding? = nil, isAnchor: Bool = false, alignment: Int = 0,
      _ write: (inout [UInt8]) -> Void
    ) {
      let start = storage.count
      write(&storage)
      let count = storage.count - start
      guard count > 0 else { return }
      let signature = signature(of: start..<storage.count)
      let isRepeat = storage.withUnsafeBufferPointer { storage in
        signatures.indices.contains { index in
          signatures[index] == signature
            && memcmp(storage.baseAddress! + kept[index].lowerBound, storage.baseAddress! + start, count) == 0
        }
      }
      if isRepeat {
        storage.removeLast(count)
        return
      }
      kept.append(start..<storage.count)
      signatures.append(signature)
      literals.append(
        Literal(
          encoding: encoding, inner: inner, start: start, count: count, isAnchor: isAnchor,
          alignment: alignment))
    }

    /// The length and first and last bytes of `storage[range]`, 0 for no bytes.
    private func signature(of range: Range<Int>) -> UInt64 {
      range.isEmpty
        ? 0
        : UInt64(range.count) << 16 | UInt64(storage[range.lowerBound]) << 8
          | UInt64(storage[range.upperBound - 1])
    }
  }

  /// The literals of `canary` (see ``patterns(for:encodings:)``), built once for the matcher.
  static func literals(for canary: Canary, encodings: Set<ScanEncoding>) -> CanaryLiterals {
    let value = canary.bytes
    let searchesValue = !encodings.isDisjoint(with: [.raw, .caseInsensitive, .fragment])
    var result = CanaryLiterals(value: value, searchesValue: searchesValue)
    var digests = DigestCache(value: value)
    var standardCores: [[UInt8]] = []
    // The enabled encodings as bits by ordinal: asking the set hashes each encoding.
    precondition(ScanEncoding.allCases.count <= 64, "more encodings than bits to hold them")
    let enabled = encodings.reduce(UInt64(0)) { $0 | 1 << UInt64($1.ordinal) }
    value.withUnsafeBufferPointer { bytes in
      for encoding in ScanEncoding.allCases where enabled & 1 << UInt64(encoding.ordinal) != 0 {
        // Renderings the decoding pass reads from the text have no forward literal.
        if encoding.isDecodedOnly { continue }
        // An escape that leaves every byte of the value as it is adds nothing: skip building it.
        let isEscape = isTextEscape(encoding)
        if isEscape && !changes(encoding, value) { continue }
        if let (digest, isHex) = digests.digest(for: encoding) {
          digest.withUnsafeBufferPointer { digest in
            if isHex {
              for digits in hexDigits {
                result.add(encoding) { TextEscapes.appendHex(digest, digits: digits, to: &$0) }
              }
              return
            }
            // Without padding, so both padded and unpadded forms match.
            for alphabet in base64Alphabets {
              result.add(encoding) {
                Base64Patterns.appendCore(
                  of: digest, alignment: 0, alphabet: alphabet, includeTail: true, to: &$0)
              }
            }
          }
          continue
        }
        switch encoding {
        case .base64, .base64url:
          let alphabet = encoding == .base64 ? Base64Patterns.standardAlphabet : Base64Patterns.urlAlphabet
          for alignment in 0..<3 {
            result.add(encoding) { output in
              let start = output.count
              Base64Patterns.appendCore(of: bytes, alignment: alignment, alphabet: alphabet, to: &output)
              if encoding == .base64 && output.count > start { standardCores.append(Array(output[start...])) }
            }
          }
        case .base32:
          for alignment in 0..<5 {
            result.add(encoding) { Base32Patterns.appendCore(of: bytes, alignment: alignment, to: &$0) }
          }
        case .hex:
          for digits in hexDigits {
            result.add(encoding) { TextEscapes.appendHex(bytes, digits: digits, to: &$0) }
          }
        case .utf16le, .utf16be:
          result.add(encoding) { appendUTF16(bytes, bigEndian: encoding == .utf16be, to: &$0) }
        default:
          let variants = escapedVariants(of: canary.value, bytes: value, escape: encoding)
          if isEscape { result.escapes.append((encoding, variants)) }
          for variant in variants { result.add(encoding) { $0 += variant } }
        }
      }
    }
    addComposedLiterals(standardCores: standardCores, encodings: encodings, to: &result)
    // Anchors, for canaries some enabled escape changes (see patterns(for:encodings:)).
    if !result.escapes.isEmpty, let range = anchorRange(of: canary) {
      let anchor = Array(value[range])
      result.anchor = anchor
      anchor.withUnsafeBufferPointer { anchor in
        for wrapper in anchorWrappers where encodings.contains(wrapper) {
          switch wrapper {
          case .base64, .base64url:
            // One core per alignment (an anchor is long enough for all three).
            let alphabet = wrapper == .base64 ? Base64Patterns.standardAlphabet : Base64Patterns.urlAlphabet
            for alignment in 0..<3 {
              result.add(wrapper, isAnchor: true, alignment: alignment) {
                Base64Patterns.appendCore(of: anchor, alignment: alignment, alphabet: alphabet, to: &$0)
              }
            }
          case .hex:  // in lower case
            result.add(wrapper, isAnchor: true) {
              TextEscapes.appendHex(anchor, digits: TextEscapes.lowerHex, to: &$0)
            }
          default:
            result.add(wrapper, isAnchor: true) {
              appendUTF16(anchor, bigEndian: wrapper == .utf16be, to: &$0)
            }
          }
        }
      }
    }
    return result
  }

  /// Chains searched as whole literals: standard base64 of the value's base64 `standardCores`
  /// (three alignments each, nine in all), and a core percent-encoded where it holds `+` or `/`.
  private static func addComposedLiterals(
    standardCores: [[UInt8]], encodings: Set<ScanEncoding>, to result: inout CanaryLiterals
  ) {
    guard encodings.contains(.base64) else { return }
    for core in standardCores {
      core.withUnsafeBufferPointer { core in
        for alignment in 0..<3 {
          result.add(.base64, over: .base64) {
            Base64Patterns.appendCore(
              of: core, alignment: alignment, alphabet: Base64Patterns.standardAlphabet, to: &$0)
          }
        }
      }
    }
    guard encodings.contains(.percent) else { return }
    for core in standardCores
    where core.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) {
      for digits in [TextEscapes.upperHex, TextEscapes.lowerHex] {
        result.add(.percent, over: .base64) {
          TextEscapes.appendPercent(core, digits: digits, keeping: TextEscapes.unreserved, to: &$0)
        }
      }
    }
  }

  /// Lower-case hex digits, then upper-case: the order hex literals are listed in.
  private static let hexDigits = [TextEscapes.lowerHex, TextEscapes.upperHex]
  /// The standard base64 alphabet, then the URL one: the order a digest's base64 is listed in.
  private static let base64Alphabets = [Base64Patterns.standardAlphabet, Base64Patterns.urlAlphabet]

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
  /// variants); when it does not, every literal ``escapedVariants(of:bytes:escape:)`` makes for it is
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
      ($0, escapedVariants(of: canary.value, bytes: value, escape: $0))
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

  /// The UTF-16 code units of UTF-8 `bytes`, two bytes each.
  static func utf16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
    var output: [UInt8] = []
    bytes.withUnsafeBufferPointer { appendUTF16($0, bigEndian: bigEndian, to: &output) }
    return output
  }

  /// Appends the UTF-16 code units of UTF-8 `bytes` to `output`, two bytes each.
  static func appendUTF16(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool, to output: inout [UInt8]) {
    let low = bigEndian ? 1 : 0
    // ASCII, as most canaries are: each byte is one code unit with a zero high byte.
    if bytes.allSatisfy({ $0 < 0x80 }) {
      output.append(writing: bytes.count * 2) { output in
        for index in bytes.indices {
          output[2 &* index &+ low] = bytes[index]
          output[2 &* index &+ 1 &- low] = 0
        }
      }
      return
    }
    for unit in String(decoding: bytes, as: UTF8.self).utf16 {
      let high = UInt8(truncatingIfNeeded: unit >> 8)
      let low = UInt8(truncatingIfNeeded: unit)
      output.append(bigEndian ? high : low)
      output.append(bigEndian ? low : high)
    }
  }

  /// The variants of text escape `escape` (one of ``textEscapes``), possibly with duplicates or
  /// the raw value among them; none for any other encoding, whose literals
  /// ``literals(for:encodings:)`` writes in place.
  static func escapedVariants(of string: String, bytes value: [UInt8], escape: ScanEncoding) -> [[UInt8]] {
    let upper = TextEscapes.upperHex
    let lower = TextEscapes.lowerHex
    switch escape {
    case .percent:
      return [TextEscapes.percent(value, digits: upper), TextEscapes.percent(value, digits: lower)]
        + TextEscapes.percentKeptSets.map { TextEscapes.percent(value, digits: upper, keeping: $0) }
    case .form:
      return [TextEscapes.form(value, digits: upper), TextEscapes.form(value, digits: lower)]
    case .doublePercent:
      return [
        TextEscapes.doublePercent(value, digits: upper), TextEscapes.doublePercent(value, digits: lower),
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
    case .quotedPrintable:
      return [TextEscapes.quotedPrintable(value)]
    default:
      return []
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
}

/// Turns a canary into every literal the scanner searches for, one list per enabled encoding.
enum PatternEncoder {
  /// Every distinct literal for `canary`, most specific encodings first; a byte string that two
  /// encodings produce is kept once, under the first. `raw` is always first when the value itself
  /// is searched (raw, case-insensitive or fragments enabled).
  static func patterns(for canary: Canary, encodings: Set<ScanEncoding>) -> [ScanPattern] {
    let value = canary.bytes
    var seen: [[UInt8]] = []  // a few dozen literals: a linear search beats hashing them
    var result: [ScanPattern] = []
    let searchesValue = !encodings.isDisjoint(with: [.raw, .caseInsensitive, .fragment])
    if searchesValue {
      result.append(ScanPattern(canary: canary, encoding: .raw, bytes: value))
    }
    seen.append(value)  // never report an encoding identical to the raw value under another name
    for encoding in ScanEncoding.allCases where encodings.contains(encoding) {
      for bytes in literals(of: canary.value, bytes: value, encoding: encoding) where !bytes.isEmpty {
        if !seen.contains(bytes) {
          seen.append(bytes)
          result.append(ScanPattern(canary: canary, encoding: encoding, bytes: bytes))
        }
      }
    }
    return result
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
      }
    case .base64:
      return Base64Patterns.cores(of: value, alphabet: Base64Patterns.standardAlphabet)
    case .base64url:
      return Base64Patterns.cores(of: value, alphabet: Base64Patterns.urlAlphabet)
    case .hex:
      return [TextEscapes.hex(value, digits: lower), TextEscapes.hex(value, digits: upper)]
    case .utf16le:
      return [string.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }]
    case .utf16be:
      return [string.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }]
    case .sha256Hex: return digestHex(SHA256.digest(value))
    case .sha256Base64: return digestBase64(SHA256.digest(value))
    case .sha1Hex: return digestHex(SHA1.digest(value))
    case .sha1Base64: return digestBase64(SHA1.digest(value))
    case .md5Hex: return digestHex(MD5.digest(value))
    case .md5Base64: return digestBase64(MD5.digest(value))
    }
  }

  private static func digestHex(_ digest: [UInt8]) -> [[UInt8]] {
    [
      TextEscapes.hex(digest, digits: TextEscapes.lowerHex),
      TextEscapes.hex(digest, digits: TextEscapes.upperHex),
    ]
  }

  /// A digest's base64 and base64url, without padding so both padded and unpadded forms match.
  private static func digestBase64(_ digest: [UInt8]) -> [[UInt8]] {
    [
      Base64Patterns.encode(digest, alphabet: Base64Patterns.standardAlphabet, padded: false),
      Base64Patterns.encode(digest, alphabet: Base64Patterns.urlAlphabet, padded: false),
    ]
  }
}

/// Percent, form, JSON, HTML and quoted-printable escapings of a value, each in the variants common encoders use.
enum TextEscapes {
  static let upperHex = Array("0123456789ABCDEF".utf8)
  static let lowerHex = Array("0123456789abcdef".utf8)

  /// Hex digits of every byte.
  static func hex(_ bytes: [UInt8], digits: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    bytes.withUnsafeBufferPointer { appendHex($0, digits: digits, to: &output) }
    return output
  }

  /// Appends the hex digits of every byte to `output`.
  static func appendHex(_ bytes: UnsafeBufferPointer<UInt8>, digits: [UInt8], to output: inout [UInt8]) {
    // Plain loops over pointers, for the unoptimized build (see `Base64Patterns.appendCore`).
    guard let input = bytes.baseAddress else { return }
    digits.withUnsafeBufferPointer { digits in
      let digits = digits.baseAddress!
      output.append(writing: bytes.count * 2) { written in
        var index = 0
        while index < bytes.count {
          let byte = input[index]
          written[2 &* index] = digits[Int(byte &>> 4)]
          written[2 &* index &+ 1] = digits[Int(byte & 15)]
          index &+= 1
        }
      }
    }
  }

  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  /// RFC 3986 percent-encoding: unreserved bytes (and those in `kept`) kept, the rest as `%XX`.
  static func percent(_ bytes: [UInt8], digits: [UInt8], keeping kept: String = "") -> [UInt8] {
    var keeps = unreserved
    keeps.insert(contentsOf: kept)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 3)
    appendPercent(bytes, digits: digits, keeping: keeps, to: &output)
    return output
  }

  /// Appends the percent-encoding of `bytes` to `output`: alphanumerics and `keeps` kept, the
  /// rest as `%XX`, or as `%25XX` when `twice` (encoded again, each escape's `%` is escaped).
  static func appendPercent(
    _ bytes: [UInt8], digits: [UInt8], keeping keeps: ASCIISet, twice: Bool = false, to output: inout [UInt8]
  ) {
    for byte in bytes {
      if isAlphanumeric(byte) || keeps.contains(byte) {
        output.append(byte)
        continue
      }
      output.append(UInt8(ascii: "%"))
      if twice {
        output.append(UInt8(ascii: "2"))
        output.append(UInt8(ascii: "5"))
      }
      appendDigits(of: byte, digits: digits, to: &output)
    }
  }

  /// Percent-encoding applied twice (as when an encoded URL is encoded again): what
  /// ``percent(_:digits:keeping:)`` escapes as `%XX` is written `%25XX`.
  static func doublePercent(_ bytes: [UInt8], digits: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 5)
    appendPercent(bytes, digits: digits, keeping: unreserved, twice: true, to: &output)
    return output
  }

  /// RFC 3986's unreserved punctuation, which every percent-encoder keeps.
  static let unreserved = ASCIISet("-._~")

  /// Appends `prefix` and the two hex digits of `byte`.
  @inline(__always)
  private static func appendEscape(_ byte: UInt8, prefix: UInt8, digits: [UInt8], to output: inout [UInt8]) {
    output.append(prefix)
    appendDigits(of: byte, digits: digits, to: &output)
  }

  /// Appends the two hex digits of `byte`.
  @inline(__always)
  private static func appendDigits(of byte: UInt8, digits: [UInt8], to output: inout [UInt8]) {
    output.append(digits[Int(byte >> 4)])
    output.append(digits[Int(byte & 15)])
  }

  /// Reserved characters that URL encoders leave as they are in one component or another: RFC 3986
  /// userinfo, path and query (as Foundation's `url…Allowed` sets), a query item's value (which
  /// must escape `&` and `=`, as `URLComponents.queryItems` does), JavaScript's
  /// `encodeURIComponent`, Python's `urllib.parse.quote` (`/` only) and Alamofire's query
  /// encoding (`/` and `?` only).
  static let percentKeptSets = [
    "!$&'()*+,;=", "!$&'()*+,;=:@/", "!$&'()*+,;=:@/?", "!$'()*+,;:@/?", "!'()*", "/", "/?",
  ]

  /// WHATWG `application/x-www-form-urlencoded`: space as `+`, `*-._` and alphanumerics kept.
  static func form(_ bytes: [UInt8], digits: [UInt8]) -> [UInt8] {
    let keeps = ASCIISet("*-._")
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 3)
    for byte in bytes {
      if isAlphanumeric(byte) || keeps.contains(byte) {
        output.append(byte)
      } else if byte == 0x20 {
        output.append(UInt8(ascii: "+"))
      } else {
        appendEscape(byte, prefix: UInt8(ascii: "%"), digits: digits, to: &output)
      }
    }
    return output
  }

  /// JSON string escaping. `slash` writes `/` as `\/` (Foundation); `html` writes `<>&` and
  /// U+2028/9 as `\u003c` etc. (Go); `asciiOnly` writes every non-ASCII scalar as `\uXXXX`.
  static func json(
    _ value: String, slash: Bool, html: Bool, asciiOnly: Bool, digits: [UInt8] = lowerHex
  ) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(value.utf8.count + 16)
    func unicodeEscape(_ unit: UInt16) {
      output.append(UInt8(ascii: "\\"))
      output.append(UInt8(ascii: "u"))
      for shift in stride(from: 12, through: 0, by: -4) {
        output.append(digits[Int(unit >> UInt16(shift)) & 15])
      }
    }
    func backslash(_ letter: Unicode.Scalar) {
      output.append(UInt8(ascii: "\\"))
      output.append(UInt8(ascii: letter))
    }
    for scalar in value.unicodeScalars {
      // Printable ASCII that no variant escapes, most of a value, is written as it is.
      if (0x20...0x7E).contains(scalar.value)
        && !jsonSpecial.contains(UInt8(truncatingIfNeeded: scalar.value))
      {
        output.append(UInt8(truncatingIfNeeded: scalar.value))
        continue
      }
      switch scalar {
      case "\"": backslash("\"")
      case "\\": backslash("\\")
      case "/" where slash: backslash("/")
      case "\n": backslash("n")
      case "\r": backslash("r")
      case "\t": backslash("t")
      case "\u{08}": backslash("b")
      case "\u{0C}": backslash("f")
      case _
      where html
        && (scalar == "<" || scalar == ">" || scalar == "&" || scalar == "\u{2028}" || scalar == "\u{2029}"):
        unicodeEscape(UInt16(scalar.value))
      default:
        if scalar.value < 0x20 || (asciiOnly && scalar.value > 0x7E) {
          UTF16.encode(scalar) { unicodeEscape($0) }
        } else {
          UTF8.encode(scalar) { output.append($0) }
        }
      }
    }
    return output
  }

  /// The printable ASCII characters some JSON variant escapes.
  private static let jsonSpecial = ASCIISet("\"\\/<>&")

  /// Quoted-printable (RFC 2045) without line breaks: printable ASCII but `=` kept, space and tab
  /// kept, every other byte as `=XX` with upper-case hex.
  static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 3)
    for byte in bytes {
      if (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=") || byte == 0x20 || byte == 0x09 {
        output.append(byte)
      } else {
        appendEscape(byte, prefix: UInt8(ascii: "="), digits: upperHex, to: &output)
      }
    }
    return output
  }

  /// How an HTML character reference is written.
  enum HTMLStyle { case named, decimal, hexLower, hexUpper }

  /// HTML/XML escaping of `&<>"'` (and `/` with `slash`), non-ASCII as numeric references unless
  /// `named` keeps it.
  /// `escaping` lists the markup characters escaped: all five in HTML and attributes, `&<>` or
  /// just `&<` in XML text.
  static func html(
    _ value: String, style: HTMLStyle, slash: Bool, apos: Bool = false, escaping: String = "&<>\"'"
  ) -> [UInt8] {
    let escaped = ASCIISet(escaping)
    var output: [UInt8] = []
    output.reserveCapacity(value.utf8.count + 16)
    func append(_ text: StaticString) {
      text.withUTF8Buffer { output.append(contentsOf: $0) }
    }
    for scalar in value.unicodeScalars {
      let needsEscape =
        scalar.isASCII && escaped.contains(UInt8(scalar.value)) || (slash && scalar == "/")
      if !needsEscape && scalar.isASCII {
        output.append(UInt8(truncatingIfNeeded: scalar.value))
        continue
      }
      if !needsEscape && style == .named {
        UTF8.encode(scalar) { output.append($0) }
        continue
      }
      switch style {
      case .named where needsEscape:
        switch scalar {
        case "&": append("&amp;")
        case "<": append("&lt;")
        case ">": append("&gt;")
        case "\"": append("&quot;")
        case "'": append(apos ? "&apos;" : "&#39;")
        case "/": append("&#x2F;")
        default: break
        }
      case .named, .decimal: reference(scalar.value, radix: 10, digits: lowerHex, prefix: "&#", to: &output)
      case .hexLower: reference(scalar.value, radix: 16, digits: lowerHex, prefix: "&#x", to: &output)
      case .hexUpper: reference(scalar.value, radix: 16, digits: upperHex, prefix: "&#x", to: &output)
      }
    }
    return output
  }

  /// Appends `prefix`, `number` in `radix` without leading zeros, and `;`.
  private static func reference(
    _ number: UInt32, radix: UInt32, digits: [UInt8], prefix: StaticString, to output: inout [UInt8]
  ) {
    prefix.withUTF8Buffer { output.append(contentsOf: $0) }
    var divisor: UInt32 = 1
    while number / divisor >= radix { divisor *= radix }
    while divisor > 0 {
      output.append(digits[Int(number / divisor % radix)])
      divisor /= radix
    }
    output.append(UInt8(ascii: ";"))
  }
}

/// A set of ASCII bytes, as a 128-bit mask.
struct ASCIISet {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// The ASCII bytes of `text` (other bytes are ignored).
  init(_ text: String) { insert(contentsOf: text) }

  mutating func insert(contentsOf text: String) {
    for byte in text.utf8 where byte < 0x80 {
      if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
    }
  }

  @inline(__always)
  func contains(_ byte: UInt8) -> Bool {
    byte < 64 ? low & (1 << byte) != 0 : byte < 128 && high & (1 << (byte - 64)) != 0
  }
}

/// Percent, form, JSON, HTML and quoted-printable escapings of a value, each in the variants common encoders use.
enum TextEscapes {
  static let upperHex = Array("0123456789ABCDEF".utf8)
  static let lowerHex = Array("0123456789abcdef".utf8)

  /// Hex digits of every byte.
  static func hex(_ bytes: [UInt8], digits: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      output.append(digits[Int(byte >> 4)])
      output.append(digits[Int(byte & 15)])
    }
    return output
  }

  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  /// RFC 3986 percent-encoding: unreserved bytes (and those in `kept`) kept, the rest as `%XX`.
  static func percent(_ bytes: [UInt8], digits: [UInt8], keeping kept: String = "") -> [UInt8] {
    var output: [UInt8] = []
    for byte in bytes {
      if isAlphanumeric(byte) || "-._~".utf8.contains(byte) || kept.utf8.contains(byte) {
        output.append(byte)
      } else {
        output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      }
    }
    return output
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
    var output: [UInt8] = []
    for byte in bytes {
      if isAlphanumeric(byte) || "*-._".utf8.contains(byte) {
        output.append(byte)
      } else if byte == 0x20 {
        output.append(UInt8(ascii: "+"))
      } else {
        output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
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
    func unicodeEscape(_ unit: UInt16) {
      output += Array("\\u".utf8)
      for shift in [12, 8, 4, 0] { output.append(digits[Int(unit >> UInt16(shift)) & 15]) }
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += Array("\\\"".utf8)
      case "\\": output += Array("\\\\".utf8)
      case "/" where slash: output += Array("\\/".utf8)
      case "\n": output += Array("\\n".utf8)
      case "\r": output += Array("\\r".utf8)
      case "\t": output += Array("\\t".utf8)
      case "\u{08}": output += Array("\\b".utf8)
      case "\u{0C}": output += Array("\\f".utf8)
      case _ where html && "<>&\u{2028}\u{2029}".unicodeScalars.contains(scalar):
        unicodeEscape(UInt16(scalar.value))
      default:
        if scalar.value < 0x20 || (asciiOnly && scalar.value > 0x7E) {
          for unit in String(scalar).utf16 { unicodeEscape(unit) }
        } else {
          output += Array(String(scalar).utf8)
        }
      }
    }
    return output
  }

  /// Quoted-printable (RFC 2045) without line breaks: printable ASCII but `=` kept, space and tab
  /// kept, every other byte as `=XX` with upper-case hex.
  static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    for byte in bytes {
      if (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=") || byte == 0x20 || byte == 0x09 {
        output.append(byte)
      } else {
        output += [UInt8(ascii: "="), upperHex[Int(byte >> 4)], upperHex[Int(byte & 15)]]
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
    var output: [UInt8] = []
    for scalar in value.unicodeScalars {
      let needsEscape = escaping.unicodeScalars.contains(scalar) || (slash && scalar == "/")
      if !needsEscape && (style == .named || scalar.isASCII) {
        output += Array(String(scalar).utf8)
        continue
      }
      switch style {
      case .named where needsEscape:
        let names: [Unicode.Scalar: String] = [
          "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": apos ? "&apos;" : "&#39;",
          "/": "&#x2F;",
        ]
        output += Array(names[scalar, default: ""].utf8)
      case .named, .decimal: output += Array("&#\(scalar.value);".utf8)
      case .hexLower: output += Array("&#x\(String(scalar.value, radix: 16));".utf8)
      case .hexUpper: output += Array("&#x\(String(scalar.value, radix: 16, uppercase: true));".utf8)
      }
    }
    return output
  }
}

import Testing

@testable import CanaryTrapScanner

/// The escapes' fast paths (printable ASCII written as is, percent-encoding twice in one pass)
/// write exactly what the scalar-by-scalar implementations they replaced write, kept here as the
/// reference.
@Suite struct TextEscapesReferenceTests {
  enum ReferenceEscapes {
    static func json(
      _ value: String, slash: Bool, html: Bool, asciiOnly: Bool, digits: [UInt8] = TextEscapes.lowerHex
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

    static func html(
      _ value: String, style: TextEscapes.HTMLStyle, slash: Bool, apos: Bool = false,
      escaping: String = "&<>\"'"
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
        if !needsEscape && (style == .named || scalar.isASCII) {
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
        case .named, .decimal:
          reference(scalar.value, radix: 10, digits: TextEscapes.lowerHex, prefix: "&#", to: &output)
        case .hexLower:
          reference(scalar.value, radix: 16, digits: TextEscapes.lowerHex, prefix: "&#x", to: &output)
        case .hexUpper:
          reference(scalar.value, radix: 16, digits: TextEscapes.upperHex, prefix: "&#x", to: &output)
        }
      }
      return output
    }

    static func reference(
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

    static func doublePercent(_ value: [UInt8], digits: [UInt8]) -> [UInt8] {
      TextEscapes.percent(value, digits: digits).flatMap {
        $0 == UInt8(ascii: "%") ? Array("%25".utf8) : [$0]
      }
    }
  }

  /// Every character some variant treats apart, and others beside them.
  static let alphabet = Array(
    "aZ09-._~!$&'()*+,;=:@/?<>\"\\ %#[]{}|^`\t\n\r\u{08}\u{0C}\u{7F}\u{01}éΩ\u{2028}\u{2029}😀".unicodeScalars)

  static func values() -> [String] {
    var random = ScannerOracleTests.SeededGenerator(state: 2026)
    return alphabet.map { "cnry\($0)" }
      + (0..<3_000).map { _ in
        var value = ""
        for _ in 0..<Int.random(in: 1...12, using: &random) {
          value.unicodeScalars.append(alphabet.randomElement(using: &random)!)
        }
        return value
      }
  }

  @Test func jsonMatchesTheReference() {
    var mismatches: [String] = []
    for value in Self.values() {
      for (slash, html, asciiOnly, digits) in [
        (false, false, false, TextEscapes.lowerHex), (true, true, true, TextEscapes.upperHex),
        (true, false, true, TextEscapes.upperHex), (false, true, false, TextEscapes.lowerHex),
      ]
      where TextEscapes.json(value, slash: slash, html: html, asciiOnly: asciiOnly, digits: digits)
        != ReferenceEscapes.json(value, slash: slash, html: html, asciiOnly: asciiOnly, digits: digits)
      {
        mismatches.append(value.debugDescription)
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test func htmlMatchesTheReference() {
    var mismatches: [String] = []
    for value in Self.values() {
      for style in [TextEscapes.HTMLStyle.named, .decimal, .hexLower, .hexUpper] {
        for (slash, apos, escaping) in [
          (false, false, "&<>\"'"), (true, true, "&<>\"'"), (false, false, "&<"),
        ]
        where TextEscapes.html(value, style: style, slash: slash, apos: apos, escaping: escaping)
          != ReferenceEscapes.html(value, style: style, slash: slash, apos: apos, escaping: escaping)
        {
          mismatches.append("\(style) \(value.debugDescription)")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test func doublePercentMatchesTheReference() {
    let mismatches = Self.values().filter { value in
      [TextEscapes.upperHex, TextEscapes.lowerHex].contains { digits in
        TextEscapes.doublePercent(Array(value.utf8), digits: digits)
          != ReferenceEscapes.doublePercent(Array(value.utf8), digits: digits)
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }
}

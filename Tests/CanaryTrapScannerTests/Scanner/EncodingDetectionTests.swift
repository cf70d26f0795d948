import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrapScanner

/// For every encoding, a canary encoded by an independent encoder (Foundation or a hand-written
/// one) and planted in a log line is found under that encoding's name.
@Suite struct EncodingDetectionTests {
  static let token = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))
  /// A password with every character the escapers care about.
  static let special = Canary(
    value: "cnryPa/ss+w0rd<&>\"' é~x", location: .requestBody(.json("password")), shape: .password)

  /// Scans `planted` inside a log line and returns the encodings found for `canary`.
  func encodings(of planted: String, canary: Canary = special) -> [String] {
    let scanner = LeakScanner(canaries: [canary])
    let text = "2026-01-01T00:00:00Z INFO request body=\(planted) done\n"
    return scanner.scan(Data(text.utf8), source: "log").map(\.encoding)
  }

  func encodings(ofBytes planted: [UInt8], canary: Canary = special) -> [String] {
    let scanner = LeakScanner(canaries: [canary])
    let text = Array("binary: ".utf8) + planted + [0, 0xFF, 0x0A]
    return scanner.scan(Data(text), source: "log").map(\.encoding)
  }

  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  @Test func raw() { #expect(encodings(of: Self.special.value) == ["raw"]) }

  @Test func caseInsensitive() {
    #expect(encodings(of: Self.token.value.uppercased(), canary: Self.token) == ["case-insensitive"])
  }

  @Test func percentUpperAndLower() {
    let upper = Self.special.value.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
    #expect(encodings(of: upper) == ["percent"])
    var lower = upper
    for escape in Set(upper.matches(of: /%[0-9A-F]{2}/).map { String(upper[$0.range]) }) {
      lower = lower.replacingOccurrences(of: escape, with: escape.lowercased())
    }
    #expect(lower != upper)
    #expect(encodings(of: lower) == ["percent"])
    // One escape in lower case among upper-case ones, as some encoders write.
    #expect(encodings(of: upper.replacingOccurrences(of: "%2F", with: "%2f")) == ["percent"])
  }

  @Test func form() {
    let allowed = Self.unreserved.union(CharacterSet(charactersIn: " *")).subtracting(
      CharacterSet(charactersIn: "~"))
    let form = Self.special.value.addingPercentEncoding(withAllowedCharacters: allowed)!
      .replacingOccurrences(of: " ", with: "+")
    #expect(encodings(of: form) == ["form"])
  }

  @Test func doublePercent() {
    let once = Self.special.value.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
    let twice = once.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
    #expect(encodings(of: twice) == ["double-percent"])
  }

  @Test func jsonEscapedByFoundation() throws {
    let data = try JSONSerialization.data(withJSONObject: [Self.special.value])
    let array = String(decoding: data, as: UTF8.self)  // ["cnryPa\/ss+w0rd<&>\"' é~x"]
    #expect(array.contains("\\/"))
    #expect(encodings(of: String(array.dropFirst(2).dropLast(2))) == ["json-escaped"])
  }

  @Test func jsonEscapedGoStyle() {
    let go = "cnryPa/ss+w0rd\\u003c\\u0026\\u003e\\\"' é~x"
    #expect(encodings(of: go) == ["json-escaped"])
    let ascii = "cnryPa/ss+w0rd\\u003c\\u0026\\u003e\\\"' \\u00e9~x"
    #expect(encodings(of: ascii) == ["json-escaped"])
  }

  @Test func htmlNamedDecimalAndHex() {
    #expect(encodings(of: "cnryPa/ss+w0rd&lt;&amp;&gt;&quot;&#39; é~x") == ["html-entity"])
    #expect(encodings(of: "cnryPa/ss+w0rd&#60;&#38;&#62;&#34;&#39; &#233;~x") == ["html-entity"])
    #expect(encodings(of: "cnryPa/ss+w0rd&#x3c;&#x26;&#x3e;&#x22;&#x27; &#xe9;~x") == ["html-entity"])
  }

  @Test func base64AtEveryAlignmentPaddedOrNot() {
    for prefix in ["", "u:", "ab:", "abc:"] {
      let encoded = Data((prefix + Self.special.value).utf8).base64EncodedString()
      #expect(encodings(of: "Basic \(encoded)") == ["base64"], "prefix \(prefix)")
      let unpadded = encoded.replacingOccurrences(of: "=", with: "")
      #expect(encodings(of: unpadded) == ["base64"], "prefix \(prefix)")
    }
  }

  @Test func base64url() {
    // The token's bytes give '+' or '/' in standard base64 at some alignment, so URL-safe differs.
    for prefix in ["", "x", "xy"] {
      let standard = Data((prefix + Self.special.value).utf8).base64EncodedString()
      let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      let found = encodings(of: url)
      #expect(found == (standard.contains(where: { "+/".contains($0) }) ? ["base64url"] : ["base64"]))
    }
  }

  @Test func hexUpperAndLower() {
    let lower = Self.special.bytes.map { String(format: "%02x", $0) }.joined()
    #expect(encodings(of: lower) == ["hex"])
    #expect(encodings(of: lower.uppercased()) == ["hex"])
    #expect(encodings(of: String(lower.prefix(10)).uppercased() + lower.dropFirst(10)) == ["hex"])
  }

  @Test func utf16BothByteOrders() {
    #expect(encodings(ofBytes: Array(Self.special.value.data(using: .utf16LittleEndian)!)) == ["utf16le"])
    #expect(
      encodings(ofBytes: Array(Self.special.value.data(using: .utf16BigEndian)!) + [0x0A]) == ["utf16be"])
    // Big-endian Latin text followed by a zero byte reads as little-endian one byte later, too:
    // the same bytes are reported once, as little-endian.
    #expect(encodings(ofBytes: Array(Self.special.value.data(using: .utf16BigEndian)!)) == ["utf16le"])
  }

  @Test func digestsInHexAndBase64() {
    let value = Self.special.bytes
    let digests: [(String, [UInt8])] = [
      ("sha256", SHA256.digest(value)), ("sha1", SHA1.digest(value)), ("md5", MD5.digest(value)),
    ]
    for (name, digest) in digests {
      let hex = digest.map { String(format: "%02x", $0) }.joined()
      #expect(encodings(of: hex) == ["\(name)-hex"])
      #expect(encodings(of: hex.uppercased()) == ["\(name)-hex"])
      #expect(encodings(of: Data(digest).base64EncodedString()) == ["\(name)-base64"])
    }
  }

  @Test func sha512AndSHA384InHexAndBase64() {
    // Digest bytes from the vector-checked implementation, rendered by Foundation.
    for (name, digest) in [
      ("sha512", SHA512.digest(Self.special.bytes)), ("sha384", SHA512.digest384(Self.special.bytes)),
    ] {
      let hex = digest.map { String(format: "%02x", $0) }.joined()
      #expect(encodings(of: hex) == ["\(name)-hex"])
      #expect(encodings(of: hex.uppercased()) == ["\(name)-hex"])
      let base64 = Data(digest).base64EncodedString()
      #expect(encodings(of: base64) == ["\(name)-base64"])
      let url = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      #expect(encodings(of: url) == ["\(name)-base64"])
    }
  }

  /// Base32 written bit by bit from a string of binary digits: a different route from the
  /// scanner's 5-bit-group arithmetic.
  static func base32(_ bytes: [UInt8]) -> String {
    let bits = bytes.map {
      String(repeating: "0", count: 8 - String($0, radix: 2).count) + String($0, radix: 2)
    }.joined()
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    var output = ""
    var index = bits.startIndex
    while index < bits.endIndex {
      let end = bits.index(index, offsetBy: 5, limitedBy: bits.endIndex) ?? bits.endIndex
      var group = String(bits[index..<end])
      group += String(repeating: "0", count: 5 - group.count)
      output.append(alphabet[Int(group, radix: 2)!])
      index = end
    }
    while output.count % 8 != 0 { output += "=" }
    return output
  }

  @Test func base32AtEveryAlignmentAnyCase() {
    #expect(Self.base32(Array("foobar".utf8)) == "MZXW6YTBOI======")  // RFC 4648 section 10
    for prefix in ["", "a", "ab", "abc", "abcd"] {
      let encoded = Self.base32(Array((prefix + Self.special.value).utf8))
      #expect(encodings(of: encoded) == ["base32"], "prefix '\(prefix)'")
      #expect(encodings(of: encoded.lowercased()) == ["base32"], "prefix '\(prefix)'")
    }
  }

  @Test func quotedPrintable() {
    // As Python's quopri writes it: '=' and bytes outside printable ASCII as =XX.
    let value = "cnry7h2kq9x4m3p8w5z=6t1r0vb é"
    let canary = Canary(value: value, location: .custom("qp"))
    #expect(encodings(of: "cnry7h2kq9x4m3p8w5z=3D6t1r0vb =C3=A9", canary: canary) == ["quoted-printable"])
  }

  @Test func fragmentOfAtLeastMinFragmentBytes() {
    let value = Self.token.value
    #expect(encodings(of: String(value.prefix(20)) + "…", canary: Self.token) == ["fragment"])
    #expect(encodings(of: "..." + String(value.dropFirst(6)), canary: Self.token) == ["fragment"])
    #expect(encodings(of: String(value.prefix(15)), canary: Self.token).isEmpty)
  }

  @Test func everyEncodingHasATest() {
    // Keep this list in step with ScanEncoding: a new case needs a detection test above (the
    // twelve renderings only decoding finds, nsdata-hex to hex-escaped, are tested in
    // DecodingPassTests, HeaderedPayloadTests, HexDumpTests and HexEscapedTests; lzfse only where
    // the Compression framework opens it).
    #expect(ScanEncoding.allCases.count == 37)
  }
}

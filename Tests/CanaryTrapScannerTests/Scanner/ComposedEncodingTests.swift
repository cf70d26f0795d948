import Foundation
import Testing

@testable import CanaryTrapScanner

/// Each composition the scanner claims to see (a text escape inside a binary wrapper, base64 of
/// base64, percent-encoded base64, line-wrapped base64), built with Foundation's encoders, found
/// under the right chain; each with a clean twin: the same construction around a canary the
/// scanner was not given yields nothing.
@Suite struct ComposedEncodingTests {
  static let generator = CanaryGenerator()
  static let password = Canary(
    value: generator.makeValue(.password), location: .requestBody(.json("password")), shape: .password)
  static let email = Canary(
    value: generator.makeValue(.email), location: .requestBody(.form("username")), shape: .email)
  /// A canary the scanner is not given: the clean twin of every construction.
  static let stranger = Canary(
    value: generator.makeValue(.password), location: .requestBody(.json("other")), shape: .password)

  static func chains(_ bytes: [UInt8], _ canaries: [Canary] = [password, email]) -> [EncodingChain] {
    LeakScanner(canaries: canaries).scan(Data(bytes), source: "store").map(\.encodings)
  }

  static func chains(_ text: String, _ canaries: [Canary] = [password, email]) -> [EncodingChain] {
    chains(Array(text.utf8), canaries)
  }

  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// JSON string content as JSONSerialization writes it.
  static func jsonEscaped(_ value: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
    return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
  }

  /// `application/x-www-form-urlencoded` as WHATWG writes it: `*-._` kept, space as `+`.
  static func formEncoded(_ value: String) -> String {
    let allowed = CharacterSet(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._ ")
    return value.addingPercentEncoding(withAllowedCharacters: allowed)!.replacingOccurrences(
      of: " ", with: "+")
  }

  /// XML text escaping as a hand-written logger does it.
  static func xmlEscaped(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  /// A network logger's file store: every request body kept as `Data`, which JSONEncoder writes
  /// in base64.
  struct StoredRequest: Codable {
    var url: String
    var body: Data
  }

  static func store(_ body: String) throws -> [UInt8] {
    let entries = [
      StoredRequest(url: "http://127.0.0.1/a", body: Data("{\"hello\":1}".utf8)),
      StoredRequest(url: "http://127.0.0.1/login", body: Data(body.utf8)),
    ]
    return Array(try JSONEncoder().encode(entries))
  }

  @Test func jsonEscapedBodyInAJSONEncoderStoreIsJSONThenBase64() throws {
    for prefix in ["", "{\"p\":\"", "{\"pw\":\""] {  // every base64 alignment
      let body = prefix + Self.jsonEscaped(Self.password.value) + "\"}"
      #expect(Self.chains(try Self.store(body)) == [EncodingChain([.jsonEscaped, .base64])], "\(prefix)")
      let twin = prefix + Self.jsonEscaped(Self.stranger.value) + "\"}"
      #expect(Self.chains(try Self.store(twin)).isEmpty)
    }
  }

  @Test func formBodyInAJSONEncoderStoreIsFormThenBase64() throws {
    let body =
      "username=\(Self.formEncoded(Self.email.value))&password=\(Self.formEncoded(Self.password.value))"
    // The email's form bytes are its percent bytes (no space): named `percent` every run.
    #expect(
      Self.chains(try Self.store(body)) == [
        EncodingChain([.percent, .base64]), EncodingChain([.form, .base64]),
      ])
    let twin = "username=x&password=\(Self.formEncoded(Self.stranger.value))"
    #expect(Self.chains(try Self.store(twin)).isEmpty)
  }

  @Test func xmlEscapedBodyInAJSONEncoderStoreIsEntityThenBase64() throws {
    let body = "<login><password>\(Self.xmlEscaped(Self.password.value))</password></login>"
    #expect(Self.chains(try Self.store(body)) == [EncodingChain([.htmlEntity, .base64])])
    let twin = "<login><password>\(Self.xmlEscaped(Self.stranger.value))</password></login>"
    #expect(Self.chains(try Self.store(twin)).isEmpty)
  }

  @Test func everyTextEscapeInsideEveryWrapper() {
    let value = Self.password.value
    let escapes: [(ScanEncoding, String)] = [
      (.percent, value.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!),
      (.form, Self.formEncoded(value)),
      (.jsonEscaped, Self.jsonEscaped(value)),
      (.htmlEntity, Self.xmlEscaped(value)),
    ]
    for (escape, escaped) in escapes {
      for prefix in ["", "a", "ab"] {
        let data = Data((prefix + escaped).utf8)
        let wrappers: [(ScanEncoding, [UInt8])] = [
          (.base64, Array(data.base64EncodedString().utf8)),
          (
            .base64url,
            Array(
              data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").utf8)
          ),
          (.hex, Array(data.map { String(format: "%02X", $0) }.joined().utf8)),
          (.utf16le, Array((prefix + escaped).data(using: .utf16LittleEndian)!)),
          (.utf16be, Array((prefix + escaped).data(using: .utf16BigEndian)!)),
        ]
        for (wrapper, bytes) in wrappers {
          var expected = EncodingChain([escape, wrapper])
          // URL-safe base64 of bytes whose base64 holds no `+` or `/` is plain base64.
          if wrapper == .base64url && !data.base64EncodedString().contains(where: { "+/".contains($0) }) {
            expected = EncodingChain([escape, .base64])
          }
          let found = Self.chains(Array("x=".utf8) + bytes + Array(" y\n".utf8), [Self.password])
          #expect(found == [expected], "\(escape) \(wrapper) prefix '\(prefix)'")
        }
      }
    }
  }

  @Test func base64OfBase64AtEveryAlignment() {
    for inner in ["", "u:", "ab:"] {
      for outer in ["", "Basic ", "Bearer "] {
        let once = outer + Data((inner + Self.password.value).utf8).base64EncodedString()
        let twice = Data(once.utf8).base64EncodedString()
        #expect(Self.chains("wrapped=\(twice)") == [EncodingChain([.base64, .base64])], "\(inner)|\(outer)")
        let twin = Data(Data(Self.stranger.value.utf8).base64EncodedString().utf8).base64EncodedString()
        #expect(Self.chains("wrapped=\(twin)").isEmpty)
      }
    }
  }

  @Test func percentEncodedBase64() {
    // A value whose base64 holds `+` or `/` at every alignment (`?`, `>` and `~` do).
    let canary = Canary(value: "cnry?>~x7h2kq9x4m3p8w5z6t1r0vb~>?", location: .requestURL(.query("t")))
    for prefix in ["", "a", "ab"] {
      let base64 = Data((prefix + canary.value).utf8).base64EncodedString()
      let encoded = base64.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
      #expect(encoded != base64)
      #expect(Self.chains("q=\(encoded)&z=1", [canary]) == [EncodingChain([.base64, .percent])], "\(prefix)")
    }
    #expect(Self.chains("q=cnry%3F%3E", [canary]).isEmpty)
  }

  @Test func mimeAndPEMLineWrappedBase64() {
    let layouts: [(Data.Base64EncodingOptions, String)] = [
      ([.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed], "MIME CRLF"),
      ([.lineLength76Characters, .endLineWithLineFeed], "MIME LF"),
      ([.lineLength64Characters, .endLineWithLineFeed], "PEM LF"),
      ([.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed], "PEM CRLF"),
    ]
    for (options, name) in layouts {
      var broken = 0
      for shift in 0..<60 {  // slide the canary across a line break
        let data = Data((String(repeating: "x", count: shift) + Self.password.value).utf8)
        let encoded = data.base64EncodedString(options: options)
        if encoded.contains("\n") { broken += 1 }
        #expect(Self.chains(encoded) == [EncodingChain(.base64)], "\(name) shift \(shift)")
        let escaped = Data(
          (String(repeating: "x", count: shift) + Self.jsonEscaped(Self.password.value)).utf8)
        #expect(
          Self.chains(escaped.base64EncodedString(options: options))
            == [EncodingChain([.jsonEscaped, .base64])], "\(name) shift \(shift)")
        let twin = Data((String(repeating: "x", count: shift) + Self.stranger.value).utf8)
        #expect(Self.chains(twin.base64EncodedString(options: options)).isEmpty)
      }
      #expect(broken > 0)
    }
  }

  @Test func anAnchorAloneIsNotALeak() {
    // The canary's escape-free run, base64-encoded without the rest of the value.
    let run = String(Self.password.value.prefix(26))
    let encoded = Data(run.utf8).base64EncodedString()
    #expect(Self.chains("partial=\(encoded)").isEmpty)
  }
}

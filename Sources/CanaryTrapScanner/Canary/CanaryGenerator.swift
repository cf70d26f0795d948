import Foundation

/// Mints random canary values of every shape from the system's cryptographic random source.
///
/// Every value starts with ``prefix`` (or its digit or hex equivalent) so a person who sees one
/// in a log knows what it is, and carries at least 100 random bits so none matches by chance.
package struct CanaryGenerator: Sendable {
  /// The prefix of tokens, emails, passwords and JWT subjects.
  package static let prefix = "cnry"
  /// The first group of every canary UUID (hex for "canary").
  package static let uuidPrefix = "ca4a"
  /// The leading digits of every numeric canary.
  package static let numberPrefix = "9"

  /// Text that every canary of some shape carries, so it identifies none of them: the prefixes,
  /// the email domain, and the start of every JWT canary's header and payload in base64url.
  ///
  /// The scanner never reports a fragment made only of such text.
  package static let sharedParts: [String] = [
    prefix, uuidPrefix, "@example.invalid", base64URL(Data(jwtHeader.utf8)), "eyJzdWIiOiJjbnJ5",
  ]

  /// The header of every JWT canary.
  private static let jwtHeader = #"{"alg":"HS256","typ":"JWT"}"#

  /// Lowercase letters and digits without look-alikes: 32 symbols, so 5 bits each.
  private static let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789".utf8) + [UInt8(ascii: "0")]
  /// The symbols three of which a password draws at random. Every common encoder treats each of
  /// them alike: every URL encoder (`URLComponents` query items, user and password, `urlQueryAllowed`,
  /// `urlPathAllowed`, `encodeURIComponent`) and every form encoder escapes all of them, and no
  /// JSON, HTML or quoted-printable escape touches any; none puts `+` or `/` into the password's
  /// base64 (`?`, `>` and `~` would, at some alignments). So the encoding a finding names never
  /// depends on the draw. Reserved characters such as `+`, `/`, `!`, `@`, `$`, `&` and `=` are
  /// kept by some URL encoders and escaped by others: drawn at random, they made one code path's
  /// encoding name change from run to run.
  static let passwordSymbols = Array("#%^{|}[]".utf8)
  /// The end of every password: bytes that each text escape changes, so an escaped form differs
  /// from the raw value in every run or in none, whatever the random symbols are: `%` (percent),
  /// `&` and `<` (HTML, XML, JSON for HTML), `/` (JSON as Foundation writes it), `=`
  /// (quoted-printable). The space before the symbols is written `+` by forms and `%20` by URLs.
  /// Being the same in every password, its reserved characters (`!`, `&`, `/`, `=`) are treated
  /// the same way in every run by any one encoder.
  /// No `"` or `\\`: test code that builds JSON by interpolation would break.
  static let passwordTail = "%P!&</="

  /// Creates a generator; all generators share the system's random source.
  package init() {}

  /// Mints a fresh value of `shape`.
  package func makeValue(_ shape: CanaryShape) -> String {
    switch shape {
    case .token: Self.prefix + randomSymbols(26)
    case .email: Self.prefix + randomSymbols(22) + "@example.invalid"
    case .uuid: makeUUID()
    case .number: Self.numberPrefix + randomDigits(33)
    case .jwt: makeJWT()
    case .password: makePassword()
    }
  }

  /// `count` symbols from the 32-letter alphabet: 5 random bits each, 12 symbols per random word.
  package func randomSymbols(_ count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    var word: UInt64 = 0
    for index in 0..<count {
      if index % 12 == 0 { word = generator.next() }
      bytes.append(Self.alphabet[Int(word & 31)])
      word >>= 5
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `count` decimal digits: about 3.3 random bits each.
  private func randomDigits(_ count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    let digits = (0..<count).map { _ in UInt8(ascii: "0") + generator.next(upperBound: UInt8(10)) }
    return String(decoding: digits, as: UTF8.self)
  }

  /// A version-4 UUID whose first 16 bits spell the canary prefix: 106 random bits remain.
  private func makeUUID() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[0] = 0xCA
    bytes[1] = 0x4A
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let uuid = UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
    return uuid.uuidString.lowercased()
  }

  /// A password: the prefix and 22 random letters (110 random bits, the run the scanner anchors
  /// composed encodings on), a space, three random symbols and ``passwordTail``.
  ///
  /// Its shape is fixed so the encoding a finding names depends on the code path, never on the
  /// draw: every text escape changes it, and its base64 never holds `+` or `/`.
  private func makePassword() -> String {
    var generator = SystemRandomNumberGenerator()
    let symbols = (0..<3).map { _ in Self.passwordSymbols.randomElement(using: &generator)! }
    return Self.prefix + randomSymbols(22) + " " + String(decoding: symbols, as: UTF8.self)
      + Self.passwordTail
  }

  /// A JWT whose payload's `sub` is a fresh opaque token and whose signature is random bytes.
  private func makeJWT() -> String {
    var generator = SystemRandomNumberGenerator()
    let issuedAt = 1_700_000_000 + Int(generator.next(upperBound: UInt32(100_000_000)))
    let payload = #"{"sub":"\#(makeValue(.token))","iat":\#(issuedAt)}"#
    let signature = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    return [Data(Self.jwtHeader.utf8), Data(payload.utf8), signature]
      .map(Self.base64URL)
      .joined(separator: ".")
  }

  /// Base64url without padding, as JWTs use.
  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}

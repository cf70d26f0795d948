import CanaryTrapScanner
import Foundation
import ServerTestSupport
import Testing

/// The scanner against encoders it does not share (``IndependentEncoders``: Foundation, coreutils
/// and hand-written ones): every encoding of a value with characters each encoder changes is found
/// where it was written and named after its encoding; the same bytes damaged in one place are not.
@Suite("Scanner against independent encoders")
struct IndependentOracleTests {
  /// Values that every text encoding changes: `/`, `+`, `<`, `&`, `"`, `'`, space, `é`, `=`, and
  /// `?` (kept by a query's percent-encoding only).
  static let values = [
    #"cnryA/b+c<d&e"f'g h=é9"#,
    #"ca4a "quoted" </tag> & 'x' /y?z"#,
    "cnry7h2kq9x4m3p8w5z6t1r0/+é",
  ]

  static func canary(_ value: String) -> Canary { Canary(value: value, location: .custom("oracle")) }

  /// Exact encodings only, so a finding is the literal or nothing.
  static var exactOptions: ScanOptions {
    var options = ScanOptions()
    options.minFragment = nil
    return options
  }

  /// Names a finding may carry for `literal` of `value`: bytes two encodings share are named once
  /// (base64 and base64url without `+/`; percent and form without a space), and an encoding that
  /// changed nothing is the raw value.
  static func acceptedNames(_ literal: IndependentEncoders.Literal, of value: String) -> Set<String> {
    var names: Set<String> =
      switch literal.encoding {
      case "base64", "base64url": ["base64", "base64url"]
      case "percent", "form": ["percent", "form"]
      default: [literal.encoding]
      }
    if literal.bytes == Array(value.utf8) { names.insert("raw") }
    return names
  }

  static func line(_ literal: [UInt8]) -> Data {
    Data(Array("2026-11-30 INFO ctx=".utf8) + literal + Array(" end\n".utf8))
  }
  static let literalOffset = "2026-11-30 INFO ctx=".utf8.count

  /// What went wrong finding `literal` of `value` in a line, or nil.
  static func problem(finding literal: IndependentEncoders.Literal, of value: String) -> String? {
    let scanner = LeakScanner(canaries: [canary(value)], options: exactOptions)
    let findings = scanner.scan(line(literal.bytes), source: "oracle")
    guard let first = findings.first else { return "\(literal) of \(value): not found" }
    let planted = literalOffset..<(literalOffset + literal.bytes.count)
    if !findings.allSatisfy({ planted.contains($0.offset) }) {
      return "\(literal) of \(value): found outside the literal at \(findings.map(\.offset))"
    }
    if !acceptedNames(literal, of: value).contains(first.encoding) {
      return "\(literal) of \(value): named \(first.encoding)"
    }
    return nil
  }

  /// `bytes` with the byte in the middle replaced by one no encoding produces there.
  static func damaged(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    let middle = bytes.count / 2
    bytes[middle] = bytes[middle] == UInt8(ascii: "!") ? UInt8(ascii: "?") : UInt8(ascii: "!")
    return bytes
  }

  @Test(
    "every independent encoding of a value is found, where it was written, under its name", arguments: values)
  func everyEncodingIsFound(_ value: String) {
    let literals = IndependentEncoders.literals(of: value)
    #expect(literals.count >= 20)
    let problems = literals.compactMap { Self.problem(finding: $0, of: value) }
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("twin: the same encodings with one byte damaged are not found", arguments: values)
  func damagedEncodingsAreNotFound(_ value: String) {
    let scanner = LeakScanner(canaries: [Self.canary(value)], options: Self.exactOptions)
    var found: [String] = []
    let raw = IndependentEncoders.Literal(encoding: "raw", variant: "utf8", bytes: Array(value.utf8))
    let literals =
      [raw] + IndependentEncoders.literals(of: value) + (IndependentEncoders.digestLiterals(of: value) ?? [])
    for literal in literals {
      let findings = scanner.scan(Self.line(Self.damaged(literal.bytes)), source: "oracle")
      if !findings.isEmpty { found.append("\(literal): \(findings.map(\.encoding))") }
    }
    #expect(found.isEmpty, "\(found)")
  }

  @Test("digests from coreutils (sha256sum, sha1sum, md5sum) are found in hex and base64", arguments: values)
  func digestsAreFound(_ value: String) throws {
    guard let literals = IndependentEncoders.digestLiterals(of: value) else {
      DidNotRun.record("sha256sum, sha1sum or md5sum is missing: the digest oracle was not checked")
      return
    }
    #expect(literals.count == 9)
    let problems = literals.compactMap { Self.problem(finding: $0, of: value) }
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("base64 at every alignment: Authorization: Basic user:password is found whatever the user name")
  func basicAuthorizationAtEveryAlignment() {
    let password = "cnryPw+/x9k2m4q8z7t1"
    let scanner = LeakScanner(canaries: [Self.canary(password)], options: Self.exactOptions)
    var missed: [String] = []
    for user in ["", "a", "ab", "abc", "abcd", "abcde", "user.name@example.invalid"] {
      let header = "Authorization: Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
      if scanner.scan(Data(header.utf8), source: "oracle").isEmpty { missed.append(user) }
    }
    #expect(missed.isEmpty, "missed with user names \(missed)")
  }

  @Test("a value inside a JSON document written by JSONSerialization is found")
  func jsonSerializationIsFound() throws {
    let value = Self.values[0]
    let document = try JSONSerialization.data(
      withJSONObject: ["token": value, "n": "1"], options: [.sortedKeys])
    let findings = LeakScanner(canaries: [Self.canary(value)], options: Self.exactOptions)
      .scan(document, source: "oracle")
    #expect(findings.map(\.encoding) == ["json-escaped"], "\(String(decoding: document, as: UTF8.self))")
  }
}

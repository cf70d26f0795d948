import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// A clean corpus (realistic log lines and near misses of every encoding) yields nothing, and the
/// same corpus with one encoding planted yields exactly that encoding. The encodings come from
/// ``IndependentEncoders`` (Foundation, coreutils and hand-written encoders), never from the
/// scanner's own pattern list, so an encoder bug cannot hide in both.
@Suite struct CleanCorpusTests {
  static let canaries = [
    EncodingDetectionTests.token, EncodingDetectionTests.special,
    Canary(value: "cnry-user-4f2a@example.invalid", location: .requestBody(.json("email")), shape: .email),
  ]

  /// The raw value and every independent encoding of every canary, with the canary it belongs to.
  static func literals() -> [(canary: Canary, literal: IndependentEncoders.Literal)] {
    canaries.flatMap { canary in
      ([IndependentEncoders.Literal(encoding: "raw", variant: "utf8", bytes: canary.bytes)]
        + IndependentEncoders.literals(of: canary.value)
        + (IndependentEncoders.digestLiterals(of: canary.value) ?? [])).map { (canary, $0) }
    }
  }

  /// Every literal damaged so that no run of 16 bytes of any literal survives.
  static func nearMisses() -> [[UInt8]] {
    literals().map(\.literal).flatMap { pattern -> [[UInt8]] in
      var bytes = pattern.bytes
      var damaged: [[UInt8]] = []
      // Replace every 12th byte: shares the prefix, never 16 bytes in a row.
      for index in stride(from: 11, to: bytes.count, by: 12) {
        bytes[index] = bytes[index] == 0x21 ? 0x22 : 0x21
      }
      damaged.append(bytes)
      damaged.append(Array(pattern.bytes.prefix(11)))  // a short prefix
      return damaged
    }
  }

  static let logLines = [
    "2026-11-29T19:20:00.123Z INFO  GET /v1/users/42?expand=profile 200 12ms req=3f2a9c1e-7b4d-4e8a-9f00-1c2d3e4f5a6b",
    "2026-11-29T19:20:00.456Z DEBUG headers={\"Accept\":\"application/json\",\"User-Agent\":\"App/1.0 (iOS 17)\"}",
    "2026-11-29T19:20:01.000Z WARN  retrying POST /signin (attempt 2) body=<redacted 214 bytes>",
    "blob=SGVsbG8sIFdvcmxkIQ== sha=2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
    "cnry cnry cnry cnry7 cnry7h cnry7h2k <&> &amp; %2F %252F \\u003c \\/ 0x00ff",
  ]

  @Test func cleanCorpusWithNearMissesYieldsNothing() {
    let scanner = LeakScanner(canaries: Self.canaries)
    var corpus = Data(Self.logLines.joined(separator: "\n").utf8)
    for miss in Self.nearMisses() {
      corpus.append(contentsOf: Array(" near=".utf8) + miss + [0x0A])
    }
    let findings = scanner.scan(corpus, source: "clean")
    #expect(findings.isEmpty, "\(findings.prefix(3))")
  }

  @Test func theSameCorpusCatchesEveryPlantedLiteral() {
    let scanner = LeakScanner(canaries: Self.canaries)
    let clean = Data(Self.logLines.joined(separator: "\n").utf8)
    var missed: [String] = []
    let literals = Self.literals()
    for (canary, literal) in literals {
      var corpus = clean
      corpus.append(contentsOf: Array(" leak=".utf8) + literal.bytes + Array(" end\n".utf8))
      let findings = scanner.scan(corpus, source: "planted")
      let names = IndependentOracleTests.acceptedNames(literal, of: canary.value)
      if findings.count != 1 || !names.contains(findings[0].encoding) || findings.first?.canary != canary {
        missed.append("\(literal) of \(canary.value): \(findings.map(\.encoding))")
      }
    }
    #expect(missed.isEmpty, "\(missed)")
    #expect(literals.count > 60)
    if IndependentEncoders.digestLiterals(of: "probe") == nil {
      DidNotRun.record("sha256sum, sha1sum or md5sum is missing: digests were not planted")
    }
  }
}

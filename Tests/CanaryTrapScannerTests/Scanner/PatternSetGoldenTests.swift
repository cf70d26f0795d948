import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrapScanner

/// The literals the scanner compiles for a canary are pinned: speeding up their construction must
/// not change WHAT is searched. The digests below were computed by the pattern code as it stood
/// before the set-up was optimised (commit 5e0f0c2's tree), over every pattern (chain, anchor
/// flag, bytes) and every compiled matcher target for canaries of every shape and symbol class;
/// they were recomputed once when the percent patterns gained the sets Python's `quote` and
/// Alamofire keep (`/`, `/?`), the only change to what is searched since.
@Suite struct PatternSetGoldenTests {
  static let values = [
    "cnry7h2kq9x4m3p8w5z6t1r0vb",  // token: letters and digits only
    "cnry5kq2mxa7pw3t9z4c6v8b2n@example.invalid",  // email
    "cnry0000-1f2e-4d3c-8b4a-9e8d7c6b5a40",  // uuid
    "40128888888818810000",  // number
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjbnJ5a3E5eDRtM3A4dzV6NnQxcjB2YiJ9.c2lnbmF0dXJl",  // jwt
    "cnryq8w2e4r6t9y3u7i5o1p0as +&=%P!&</=",  // password: every escape changes it
    "cnry.tok_en-with~tilde*star",  // `~` and `*` split percent from form
    "cnryhtml\"quote'apos>gt/slash\\back",  // JSON and HTML specials
    "cnryunicode-é-漢字-😀-\u{2028}-end",  // non-ASCII: numeric references, \u escapes
    "cnryctl\n\t\r\u{08}\u{0C}\u{01}\u{7F}-ctl",  // control characters
    "cnry?q=1&r=2#frag:user@host;x=(y)!$,[z]",  // URL reserved characters
    "cnry+/+/base64-specials+//",  // `+` and `/` in the value itself
    "ab",  // shorter than any anchor
  ]

  static let encodingSets: [Set<ScanEncoding>] = [
    Set(ScanEncoding.allCases),
    [.raw, .percent, .base64],
    [.htmlEntity, .hex, .utf16le, .base64url],
    [.form, .doublePercent, .jsonEscaped, .quotedPrintable, .base64, .utf16be],
    Set(ScanEncoding.allCases).subtracting([.raw, .caseInsensitive, .fragment]),
  ]

  static func canaries(_ values: [String] = values) -> [Canary] {
    values.enumerated().map { index, value in
      Canary(value: value, location: .custom("golden[\(index)]"), shape: CanaryShape.allCases[index % 6])
    }
  }

  /// Hex SHA-256 of every pattern of every canary, encoding set by encoding set.
  static func patternDigest(_ values: [String] = values) -> String {
    var text: [UInt8] = []
    for encodings in encodingSets {
      for canary in canaries(values) {
        text += Array("canary \(canary.value)\n".utf8)
        for pattern in PatternEncoder.patterns(for: canary, encodings: encodings) {
          text += Array("\(pattern.chain) anchor=\(pattern.isAnchor) ".utf8) + pattern.bytes + [0x0A]
        }
        for (step, bytes) in PatternEncoder.escapedForms(of: canary, encodings: encodings) {
          text += Array("form \(step) ".utf8) + bytes + [0x0A]
        }
      }
    }
    return String(decoding: TextEscapes.hex(SHA256.digest(text), digits: TextEscapes.lowerHex), as: UTF8.self)
  }

  /// Hex SHA-256 of the compiled matcher's targets, storage, chains and anchors.
  static func targetsDigest() -> String {
    var text: [UInt8] = []
    for encodings in encodingSets {
      for keepsValues in [false, true] {
        let options = ScanOptions(encodings: encodings)
        let targets = MatcherTargets(canaries: canaries(), options: options, keepsValues: keepsValues)
        text += Array("\(targets.targets)\n\(targets.chains)\n\(targets.anchors)\n".utf8)
        text += targets.storage + targets.distinctiveCounts.map { UInt8(truncatingIfNeeded: $0) }
      }
    }
    return String(decoding: TextEscapes.hex(SHA256.digest(text), digits: TextEscapes.lowerHex), as: UTF8.self)
  }

  @Test func patternSetIsUnchanged() {
    #expect(Self.patternDigest() == "898dd8ba99c42e2518082d36fa4dc287024d41aaa71582aac54ff2aeb5d60782")
  }

  /// Changed by the six renderings only decoding finds (`nsdata-hex` … `deflate`): the chain
  /// table lists every single encoding first, so composed chains' ids moved; the literals did
  /// not (``patternSetIsUnchanged()``). Recomputed once more when the scanner became the module
  /// `CanaryTrapScanner`: the text printed for the targets names their module; with
  /// `CanaryTrapScanner.` mapped back to `CanaryTrap.` it gave the previous digest
  /// (`f0a9afff…c341f`), so the targets themselves did not change. Moved again by `zip`, a
  /// seventh single encoding (from `a6c98d7e…09c3aa`): composed chains' ids shifted by one.
  /// Moved again by `bzip2`, `lz4` and `lzfse` (from `a14c4596…bc24db`): composed chains' ids
  /// shifted by three, the literals unchanged. Moved again by `hex-dump` (from `b3be749e…68c352`):
  /// composed chains' ids shifted by one, the literals unchanged. Moved again by `hex-escaped`
  /// (from `b9d77d84…b9a604b`): composed chains' ids shifted by one, the literals unchanged.
  @Test func compiledTargetsAreUnchanged() {
    #expect(Self.targetsDigest() == "17b3cf405553b2f749856bbe48e555ac4057c7b167eb35693ae58685d0d8a076")
  }

  /// The digest is sensitive: a value differing in one symbol, which changes only its escaped
  /// literals, gives another digest.
  @Test func digestCatchesOneChangedLiteral() {
    var changed = Self.values
    changed[5] = changed[5].replacingOccurrences(of: "<", with: ">")
    #expect(Self.patternDigest(changed) != Self.patternDigest())
  }
}

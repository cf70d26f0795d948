import Foundation
import Testing

@testable import CanaryTrapScanner

/// Hostile or odd input: each scans or fails with a clear message, and never crashes or hangs.
@Suite struct ScannerBadInputTests {
  static let token = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))

  @Test func randomBinaryScansAndCanariesInsideItAreFound() {
    var random = ScannerOracleTests.SeededGenerator(state: 99)
    var bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    let scanner = LeakScanner(canaries: [Self.token])
    #expect(scanner.scan(Data(bytes), source: "bin").isEmpty)
    bytes.replaceSubrange(200_000..<200_026, with: Self.token.bytes)
    let findings = scanner.scan(Data(bytes), source: "bin")
    #expect(findings.map(\.offset) == [200_000])
    #expect(findings.map(\.encoding) == ["raw"])
  }

  @Test func invalidUTF8AndNULBytesAroundACanary() {
    let bytes: [UInt8] =
      [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0xED, 0xA0, 0x80] + Self.token.bytes + [0x00, 0xF8, 0x80]
    let findings = LeakScanner(canaries: [Self.token]).scan(Data(bytes), source: "odd")
    #expect(findings.map(\.offset) == [8])
    #expect(findings.first?.excerpt.hasPrefix("\\xFF\\xFE\\x00\\xC3(\\xED\\xA0\\x80cnry") == true)
  }

  @Test func oneLetterAndAMillionCombiningMarks() {
    let marks = "a" + String(repeating: "\u{0301}", count: 1_000_000)
    let scanner = LeakScanner(canaries: [Self.token])
    #expect(scanner.scan(Data(marks.utf8), source: "zalgo").isEmpty)
    // A canary right after the marks is still found: bytes, not Characters.
    let findings = scanner.scan(Data((marks + Self.token.value).utf8), source: "zalgo")
    #expect(findings.map(\.offset) == [2_000_001])
    #expect(findings.first?.line == 1)
  }

  @Test func emptyInputs() throws {
    let scanner = LeakScanner(canaries: [Self.token])
    #expect(scanner.scan(Data(), source: "empty").isEmpty)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try scanner.scanFile(at: file, source: "empty")
    #expect(result.findings.isEmpty)
    #expect(result.bytes == 0)
    // No canaries at all: nothing to find, no crash.
    #expect(LeakScanner(canaries: []).scan(Data("anything".utf8), source: "s").isEmpty)
    #expect(LeakScanner(canaries: []).patterns.isEmpty)
  }

  @Test func aPeriodicCanaryInAPeriodicTextStaysLinear() {
    let canary = Canary(value: String(repeating: "a", count: 16), location: .custom("aaaa"))
    let text = String(repeating: "a", count: 200_000)
    var options = ScanOptions()
    options.maxFindingsPerCanary = 20_000
    let findings = LeakScanner(canaries: [canary], options: options).scan(Data(text.utf8), source: "a")
    // Non-overlapping raw matches only.
    #expect(findings.count == 12_500)
    #expect(Set(findings.map(\.encoding)) == ["raw"])
  }

  @Test func manyCanariesCompileAndScan() {
    let generator = CanaryGenerator()
    let canaries = (0..<10_000).map {
      Canary(value: generator.makeValue(.token), location: .custom("bulk[\($0)]"))
    }
    let scanner = LeakScanner(
      canaries: canaries, options: ScanOptions(encodings: [.raw, .caseInsensitive, .base64]))
    let text = "x " + canaries[2_345].value + " y " + canaries[9_999].value.uppercased()
    let findings = scanner.scan(Data(text.utf8), source: "bulk")
    #expect(findings.map(\.canary) == [canaries[2_345], canaries[9_999]])
    #expect(findings.map(\.encoding) == ["raw", "case-insensitive"])
  }
}

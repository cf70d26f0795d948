import Foundation
import Testing

@testable import CanaryTrapScanner

/// Streaming, chunk boundaries, files, excerpts and de-duplication.
@Suite struct ScanStreamTests {
  static let token = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))

  func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func matchStraddlingEveryChunkBoundaryIsFoundExactlyOnce() {
    let scanner = LeakScanner(canaries: [Self.token], options: ScanOptions(), chunkSize: 64)
    let prefix = String(repeating: "x", count: 150)
    let text = Array((prefix + Self.token.value + "\n").utf8)
    // Every way of cutting the text in two pieces, and one-byte pieces.
    for cut in 140...text.count {
      let stream = scanner.makeStream(source: "s")
      stream.feed(text[..<cut])
      stream.feed(text[cut...])
      let findings = stream.finish()
      #expect(findings.map(\.offset) == [150], "cut at \(cut)")
      #expect(findings.map(\.encoding) == ["raw"])
    }
    let stream = scanner.makeStream(source: "s")
    for byte in text { stream.feed(CollectionOfOne(byte)) }
    #expect(stream.finish().map(\.offset) == [150])
  }

  @Test func lineAndColumnSurviveManyChunks() {
    let scanner = LeakScanner(canaries: [Self.token], options: ScanOptions(), chunkSize: 100)
    var text = ""
    for line in 1...500 {
      text += line == 321 ? "abc \(Self.token.value)\n" : "line \(line) of filler text\n"
    }
    let findings = scanner.scan(Data(text.utf8), source: "log")
    #expect(findings.count == 1)
    #expect(findings.first?.line == 321)
    #expect(findings.first?.column == 5)
    let offset = try? #require(text.utf8.firstRange(of: Self.token.value.utf8)?.lowerBound)
    #expect(findings.first?.offset == offset.map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
  }

  @Test func excerptIsBoundedAndEscaped() {
    var options = ScanOptions()
    options.excerptRadius = 5
    let scanner = LeakScanner(canaries: [Self.token], options: options)
    let text = "SECRET-CONTEXT-BEFORE\t\u{1B}[31m\(Self.token.value)\0AF\nTER-CONTEXT-SECRET"
    let finding = scanner.scan(Data(text.utf8), source: "s").first
    // Escaped, bounded by the radius, and cut at the line break.
    #expect(finding?.excerpt == "\\x1B[31m\(Self.token.value)\\x00AF")
    #expect(finding?.excerpt.contains("CONTEXT") == false)
  }

  @Test func mostSpecificEncodingWins() {
    let scanner = LeakScanner(canaries: [Self.token])
    // The raw value also matches case-insensitively and as a fragment: one raw finding.
    #expect(scanner.scan(Data(Self.token.value.utf8), source: "s").map(\.encoding) == ["raw"])
    // An upper-cased value: one case-insensitive finding, not a fragment.
    #expect(
      scanner.scan(Data(Self.token.value.uppercased().utf8), source: "s").map(\.encoding) == [
        "case-insensitive"
      ])
    // Two occurrences: two findings.
    let twice = Self.token.value + " " + Self.token.value
    #expect(scanner.scan(Data(twice.utf8), source: "s").map(\.offset) == [0, 27])
  }

  @Test func encodingsCanBeTurnedOff() {
    let scanner = LeakScanner(
      canaries: [Self.token], options: ScanOptions(encodings: [.base64], minFragment: nil))
    let encoded = Data(Self.token.value.utf8).base64EncodedString()
    #expect(
      scanner.scan(Data((Self.token.value + " " + encoded).utf8), source: "s").map(\.encoding) == ["base64"])
    #expect(scanner.patterns.allSatisfy { $0.encoding == .base64 })
  }

  @Test func fileContentIsStreamedFromItsOffset() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("app.log")
    let old = "old run \(Self.token.value)\n"
    try Data((old + "new run\nleak \(Self.token.value)\n").utf8).write(to: file)
    let scanner = LeakScanner(canaries: [Self.token], options: ScanOptions(), chunkSize: 64)
    let whole = scanner.scan(.file(file, name: "app.log"))
    #expect(whole.findings.count == 2)
    #expect(whole.source == ScannedSource(name: "app.log", bytes: old.utf8.count * 2 + 8 - 3))
    let fresh = scanner.scan(.file(file, from: UInt64(old.utf8.count), name: "app.log"))
    // Only the new bytes are scanned, but positions are those of the file.
    #expect(fresh.findings.map(\.line) == [3])
    #expect(fresh.findings.map(\.column) == [6])
    #expect(fresh.findings.map(\.offset) == [old.utf8.count + "new run\nleak ".utf8.count])
    #expect(fresh.findings.first?.source == "app.log")
  }

  @Test func unreadableContentIsAFailedSourceNotACrash() throws {
    let scanner = LeakScanner(canaries: [Self.token])
    let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/app.log")
    let result = scanner.scan(.file(missing, name: "missing"))
    #expect(result.findings.isEmpty)
    guard case .failed(let reason) = result.source.status else {
      Issue.record("expected a failed source, got \(result.source.status)")
      return
    }
    #expect(reason.contains(missing.path))
    #expect(throws: ScanError.self) { try scanner.scanFile(at: missing, source: "missing") }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(throws: ScanError.self) { try scanner.scanFile(at: directory, source: "dir") }
  }

  @Test func inMemoryContentReportsItsSize() {
    let scanner = LeakScanner(canaries: [Self.token])
    let result = scanner.scan(.bytes(Data("x \(Self.token.value)".utf8), name: "memory-log"))
    #expect(result.findings.map(\.source) == ["memory-log"])
    #expect(result.source.bytes == 28)
    #expect(result.source.status == .heard)
  }
}

extension ScanStreamTests {
  @Test func bytesSharedByTwoCanariesAreNoFragmentOfEither() {
    let header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    let first = Canary(value: header + ".eyJzdWIiOiJjbnJ5YWFh.sig1", location: .custom("jwt[1]"))
    let second = Canary(
      value: header + ".eyJzdWIiOiJjbnJ5YmJiZGRkZWVlZmZm.sig2", location: .custom("jwt[2]"))
    let scanner = LeakScanner(canaries: [first, second])
    #expect(scanner.scan(Data("Bearer \(header)...".utf8), source: "s").isEmpty)
    // A longer run that only the second canary explains, with 12 bytes of its own, is its fragment.
    let findings = scanner.scan(
      Data("Bearer \(header).eyJzdWIiOiJjbnJ5YmJiZGRkZWVl...".utf8), source: "s")
    #expect(findings.map(\.canary) == [second])
    #expect(findings.map(\.encoding) == ["fragment"])
  }
}

extension ScanStreamTests {
  @Test func newlineCountMatchesANaiveCount() {
    var random = ScannerOracleTests.SeededGenerator(state: 5)
    for length in [0, 1, 7, 8, 9, 31, 64, 2047, 2048, 2049, 10_000] {
      let bytes = (0..<length).map { _ in
        [0x0A, 0x0B, 0x8A, 0x00, 0x61].randomElement(using: &random)! as UInt8
      }
      let counted = bytes.withUnsafeBufferPointer { LineCounter.countNewlines($0.baseAddress!, length) }
      #expect(counted == bytes.filter { $0 == 0x0A }.count, "length \(length)")
    }
    // Only newlines: every lane counts each round, past the 255 rounds a lane can hold.
    for length in [8159, 8160, 8161, 16_352, 16_400] {
      let bytes = [UInt8](repeating: 0x0A, count: length)
      let counted = bytes.withUnsafeBufferPointer { LineCounter.countNewlines($0.baseAddress!, length) }
      #expect(counted == length, "length \(length)")
    }
  }

  @Test func fileFindingsAreNumberedAcrossChunks() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("many.log")
    var text = ""
    for line in 1...3000 {
      text += [700, 2999].contains(line) ? "at \(Self.token.value)\n" : "filler line \(line)\n"
    }
    try Data(text.utf8).write(to: file)
    let scanner = LeakScanner(canaries: [Self.token], options: ScanOptions(), chunkSize: 1000)
    let result = try scanner.scanFile(at: file, source: "many")
    #expect(result.findings.map(\.line) == [700, 2999])
    #expect(result.findings.map(\.column) == [4, 4])
    #expect(result.findings == scanner.scan(Data(text.utf8), source: "many"))
  }
}

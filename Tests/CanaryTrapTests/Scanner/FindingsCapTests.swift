import Foundation
import Testing

@testable import CanaryTrap

/// A source full of one canary keeps at most ``ScanOptions/maxFindingsPerCanary`` findings per
/// canary, counts the rest exactly, and every report format says how many more there were.
@Suite struct FindingsCapTests {
  static let token = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))
  static let other = Canary(value: "cnryQ4Z8V2M6K0T3X7N1", location: .custom("request.header[X-Other]"))

  /// `lines` lines, each holding the token, plus one line with the other canary.
  static func log(lines: Int) -> Data {
    var text = ""
    for index in 0..<lines { text += "line \(index) token=\(token.value)\n" }
    text += "other=\(other.value)\n"
    return Data(text.utf8)
  }

  static func scanner(cap: Int) -> LeakScanner {
    var options = ScanOptions()
    options.maxFindingsPerCanary = cap
    return LeakScanner(canaries: [token, other], options: options)
  }

  @Test func findingsPastTheCapAreCountedExactly() {
    let (found, source) = Self.scanner(cap: 10).scan(
      SinkContent.bytes(Self.log(lines: 5_000), name: "app.log"))
    #expect(found.filter { $0.canary == Self.token }.count == 10)
    #expect(found.filter { $0.canary == Self.other }.count == 1)
    #expect(source.omittedFindings == [OmittedFindings(canary: Self.token, source: "app.log", count: 4_990)])
    // The kept ones are the first, with their true lines.
    #expect(found.filter { $0.canary == Self.token }.map(\.line) == Array(1...10))
    #expect(found.first { $0.canary == Self.other }?.line == 5_001)
    let report = LeakReport(
      title: "cap", canaries: [Self.token, Self.other], findings: found, sources: [source])
    #expect(report.totalFindingCount == 5_001)
    #expect(report.verdictLine.hasPrefix("LEAKY: 5001 leaks"))
  }

  @Test func underTheCapEverythingIsListed() {
    let (found, source) = Self.scanner(cap: 100).scan(SinkContent.bytes(Self.log(lines: 40), name: "app.log"))
    #expect(found.count == 41)
    #expect(source.omittedFindings.isEmpty)
    let report = LeakReport(
      title: "cap", canaries: [Self.token, Self.other], findings: found, sources: [source])
    #expect(report.omittedFindings.isEmpty)
    #expect(!String(decoding: report.rendered(as: .json), as: UTF8.self).contains("omittedLeaks"))
  }

  @Test func theDefaultCapIsAHundredAndFileScansCountToo() throws {
    #expect(ScanOptions().maxFindingsPerCanary == 100)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cap-\(UUID().uuidString).log")
    try Self.log(lines: 3_000).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try LeakScanner(canaries: [Self.token, Self.other]).scanFile(at: file, source: "f")
    #expect(result.findings.count == 101)
    #expect(result.omitted.map(\.count) == [2_900])
  }

  @Test(arguments: ReportFormat.allCases)
  func everyFormatSaysHowManyMoreThereWere(format: ReportFormat) {
    let (found, source) = Self.scanner(cap: 3).scan(SinkContent.bytes(Self.log(lines: 250), name: "app.log"))
    let report = LeakReport(
      title: "cap", canaries: [Self.token, Self.other], findings: found, sources: [source])
    let text = String(decoding: report.rendered(as: format), as: UTF8.self)
    #expect(text.contains("247"), "\(format) does not say 247 more")
    #expect(text.contains("251"), "\(format) does not give the exact total")
  }

  @Test func aHugeLogStaysSmallInEveryFormat() {
    // 200,000 findings of one canary: the reports list 100 and count the rest.
    let line = "token=\(Self.token.value)\n"
    let data = Data(String(repeating: line, count: 200_000).utf8)
    let (found, source) = LeakScanner(canaries: [Self.token]).scan(SinkContent.bytes(data, name: "big.log"))
    #expect(found.count == 100)
    #expect(source.omittedFindings.first?.count == 199_900)
    let report = LeakReport(title: "big", canaries: [Self.token], findings: found, sources: [source])
    for format in ReportFormat.allCases {
      #expect(report.rendered(as: format).count < 200_000, "\(format)")
    }
  }
}

/// The streamed JSON report is byte for byte the rendered one.
@Suite struct StreamedJSONTests {
  @Test(arguments: [0, 1, 7])
  func streamingWritesTheSameBytes(lines: Int) throws {
    var text = "title \"quoted\" / slash\n"
    for index in 0..<lines { text += "line \(index) token=\(FindingsCapTests.token.value)\n" }
    let (found, source) = FindingsCapTests.scanner(cap: 5).scan(
      SinkContent.bytes(Data(text.utf8), name: "a/b.log"))
    let report = LeakReport(
      title: "t \"x\" </script>", canaries: [FindingsCapTests.token, FindingsCapTests.other], findings: found,
      sources: [source, ScannedSource(name: "gone", bytes: 0, status: .failed(reason: "no"))], errors: ["e"])
    var pieces: [Data] = []
    try report.streamJSON { pieces.append($0) }
    #expect(pieces.reduce(Data(), +) == report.rendered(as: .json))
    #expect(pieces.count == (found.isEmpty ? 1 : found.count + 2))
  }
}

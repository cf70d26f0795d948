import Foundation
import Testing

@testable import CanaryTrapScanner

/// A percent-encoded URL a wrapping logger cut into lines under its prefix is one run: a value cut
/// at a line's end, or one of its escapes cut in two, is read whole; line by line it was missed.
@Suite struct WrappedPercentRunTests {
  let generator = CanaryGenerator()

  /// A GraphQL GET whose `variables` hold a password (JSONSerialization writes its `/` as `\/`),
  /// the query made by `URLComponents`.
  func request() -> (String, Canary) {
    let password = Canary(value: generator.makeValue(.password), location: .custom("password"))
    let object: [String: Any] = ["variables": ["password": password.value, "remember": true]]
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return ("GET " + DecodedRenderings.graphQLQuery(data) + " HTTP/1.1", password)
  }

  /// `line` cut every `width` bytes, each piece under a `[net i/n] ` counter.
  static func wrapped(_ line: String, width: Int) -> String {
    let bytes = Array(line.utf8)
    let pieces = stride(from: 0, to: bytes.count, by: width).map {
      String(decoding: bytes[$0..<min(bytes.count, $0 + width)], as: UTF8.self)
    }
    return pieces.enumerated().map { "[net \($0.offset + 1)/\(pieces.count)] \($0.element)\n" }.joined()
  }

  func scan(_ text: String, _ canary: Canary, joins: Bool = true, chunkSize: Int = 1 << 20) -> (
    [LeakFinding], ScannedSource
  ) {
    var options = ScanOptions()
    options.joinsWrappedLines = joins
    let scanner = LeakScanner(canaries: [canary], options: options, chunkSize: chunkSize)
    return scanner.scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  @Test(arguments: [1 << 20, 256])
  func aPercentEncodedBodyWrappedAtAnyWidthIsFound(chunkSize: Int) {
    let (line, password) = request()
    var missedLineByLine = 0
    var escapesCut = 0
    for width in 30...80 {
      let text = String(repeating: "filler line of the log\n", count: 12) + Self.wrapped(line, width: width)
      let (findings, source) = scan(text + "after\n", password, chunkSize: chunkSize)
      #expect(source.status.failureReason == nil)
      #expect(Set(findings.map(\.encoding)) == ["json-escaped → percent"], "width \(width):\n\(text)")
      let lineByLine = scan(text, password, joins: false).0
      if !lineByLine.contains(where: { $0.encoding == "json-escaped → percent" }) { missedLineByLine += 1 }
      if text.split(separator: "\n").contains(where: { $0.hasSuffix("%") || $0.dropLast().hasSuffix("%") }) {
        escapesCut += 1
      }
    }
    // The twin: read a line at a time, the value is not found whole at most widths (at best a
    // fragment, where a line holds 16 of its characters unescaped).
    #expect(missedLineByLine > 10, "\(missedLineByLine) of 51 widths missed line by line")
    #expect(escapesCut > 10)
  }

  @Test func anotherBodyWrappedTheSameWayIsClean() {
    let (_, password) = request()
    let (other, _) = request()
    for width in [33, 47, 61] {
      let (findings, source) = scan(Self.wrapped(other, width: width), password)
      #expect(findings.isEmpty)
      #expect(source.status.failureReason == nil)
    }
  }
}

import Foundation
import Testing

@testable import CanaryTrapScanner

/// A large buffer is decoded in two parts at once, cut at a line break: the findings are the ones
/// a single pass finds, whatever the chunking.
@Suite struct DecodingSplitTests {
  @Test func twoPartsFindWhatOnePartFinds() throws {
    let generator = CanaryGenerator()
    let canaries = (0..<6).map { Canary(value: generator.makeValue(.token), location: .custom("t\($0)")) }
    var random = SystemRandomNumberGenerator()
    var renderings: [String] = []
    for canary in canaries {
      let data = Data(#"{"token":"\#(canary.value)","scope":"profile"}"#.utf8)
      renderings += [DecodedRenderings.nsData(data), DecodedRenderings.byteList(data)]
      if let gzip = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", data) {
        renderings.append(#"{"payload":"\#(gzip)"}"#)
      }
      if let dump = try HexDumpTests.dump("xxd", [], data) { renderings.append("\n" + dump) }
    }
    var log = ""
    var plants: [ClosedRange<Int>] = []  // the lines each plant spans
    var line = 0
    while log.utf8.count < 3 << 20 {
      line += 1
      log +=
        "2026-12-06T08:00:00Z INFO GET /v1/items?page=\(line % 97) trace=\(String(line, radix: 16)) 12ms\n"
      if Int.random(in: 0..<300, using: &random) == 0 {
        let plant = "DEBUG body=" + renderings.randomElement(using: &random)! + "\n"
        let lines = plant.utf8.count { $0 == 0x0A }
        plants.append((line + 1)...(line + lines))
        line += lines
        log += plant
      }
    }
    let bytes = Array(log.utf8)
    let scanner = LeakScanner(canaries: canaries)
    func scan(splits: Bool) -> [LeakFinding] {
      let stream = scanner.makeStream(source: "app.log")
      stream.decodingSplits = splits
      var index = 0
      while index < bytes.count {
        let end = min(bytes.count, index + 100_003)
        stream.feed(bytes[index..<end])
        index = end
      }
      #expect(stream.decodingCutShort == nil)
      return stream.finish()
    }
    let parts = scan(splits: true)
    let whole = scan(splits: false)
    #expect(parts == whole)
    #expect(plants.count > 20)
    // Every plant is found (a rendering may hold one canary in more than one finding, a dump on
    // more than one of its lines), and nothing outside the plants is.
    let unfound = plants.filter { plant in !parts.contains { plant.contains($0.line) } }
    let outside = parts.filter { finding in !plants.contains { $0.contains(finding.line) } }
    #expect(unfound.isEmpty, "plants on lines \(unfound) not found")
    #expect(outside.isEmpty, "\(outside.map { "line \($0.line): \($0.encoding) in \($0.excerpt)" })")
  }
}

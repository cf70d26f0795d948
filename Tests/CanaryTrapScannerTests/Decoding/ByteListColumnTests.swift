import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Byte lists printed one number per line (``ByteListColumn``): `dump(_:)` of a `[UInt8]`,
/// `JSONEncoder`'s `.prettyPrinted` output of a `[UInt8]` property, Python's `pprint`, each made
/// by the tool itself, with fresh canaries each run; their twins of random bytes report nothing.
@Suite struct ByteListColumnTests {
  let generator = CanaryGenerator()

  /// A JSON body holding an e-mail and a token canary, as a client sends it (a token, unlike a
  /// password, holds no `/` for `JSONSerialization` to escape, so both are named alike).
  func body() -> (Data, [Canary]) {
    let email = Canary(value: generator.makeValue(.email), location: .custom("email"))
    let token = Canary(value: generator.makeValue(.token), location: .custom("token"))
    let object: [String: Any] = ["profile": ["email": email.value, "token": token.value]]
    return (try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), [email, token])
  }

  func scan(_ text: String, _ canaries: [Canary], chunkSize: Int = 1 << 20) -> ([LeakFinding], ScannedSource)
  {
    LeakScanner(canaries: canaries, options: ScanOptions(), chunkSize: chunkSize)
      .scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  func names(_ findings: [LeakFinding], _ canary: Canary) -> Set<String> {
    Set(findings.filter { $0.canary.value == canary.value }.map(\.encoding))
  }

  /// An upload a client logs with `JSONEncoder`'s pretty printing.
  struct Upload: Encodable {
    var name: String
    var payload: [UInt8]
  }

  /// The renderings Swift's own tools write, by name.
  static let swiftRenderings: [String] = ["dump", "pretty JSON", "prefixed pretty JSON", "0x per line"]

  func render(_ name: String, _ data: Data) -> String {
    switch name {
    case "dump":
      var text = ""
      dump(Array(data), to: &text)
      return text
    case "pretty JSON", "prefixed pretty JSON":
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      let json = String(
        decoding: try! encoder.encode(Upload(name: "batch", payload: Array(data))), as: UTF8.self)
      guard name == "prefixed pretty JSON" else { return json }
      // A logger that writes its prefix on every line of a message.
      return json.split(separator: "\n").enumerated().map {
        "2026-12-07T10:00:00.\(100 + $0.offset % 900)Z DEBUG \($0.element)"
      }
      .joined(separator: "\n")
    default:
      return data.map { String(format: "    0x%02X,", $0) }.joined(separator: "\n")
    }
  }

  @Test(arguments: swiftRenderings) func aByteListPrintedOneNumberPerLineIsDecoded(_ rendering: String) {
    let (data, canaries) = body()
    let text = "upload failed (422), body:\n" + render(rendering, data) + "\nretrying in 2s\n"
    let (findings, source) = scan(text, canaries)
    #expect(source.status.failureReason == nil)
    let name = rendering == "0x per line" ? "hex-byte-list" : "byte-list"
    for canary in canaries { #expect(names(findings, canary) == [name], "\(rendering): \(text)") }
  }

  @Test(arguments: swiftRenderings) func randomBytesPrintedOneNumberPerLineAreClean(_ rendering: String) {
    let (_, canaries) = body()
    // The canaries' own prefix, then random bytes: a look-alike holds no canary.
    var data = Data(canaries[0].value.prefix(6).utf8)
    data += Data((0..<200).map { _ in UInt8.random(in: 0...255) })
    let (findings, source) = scan("body:\n" + render(rendering, data) + "\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(findings.isEmpty, "\(findings.map(\.encoding))")
  }

  @Test func pythonsPprintAndAGzipBodyArePrintedAndOpened() throws {
    let (data, canaries) = body()
    guard let listed = try DecodedRenderings.python("__import__('pprint').pformat(list(d)).encode()", data),
      let gzipped = try DecodedRenderings.python(
        "__import__('pprint').pformat(list(gzip.compress(d))).encode()", data)
    else { return }
    for canary in canaries {
      #expect(names(scan("request body\n" + listed + "\n", canaries).0, canary) == ["byte-list"], "\(listed)")
      #expect(names(scan("request body\n" + gzipped + "\n", canaries).0, canary) == ["gzip → byte-list"])
    }
  }

  @Test func aLineEndingWithANumberJustBeforeTheListStartsNone() throws {
    let (data, canaries) = body()
    guard let gzipped = try gzipCompressedBytes(data) else { return }
    // `sent 3` ends its line with a number: read as the list's first, the payload would not open.
    let list = gzipped.map { "  \($0)," }.joined(separator: "\n")
    let (findings, _) = scan("attempt 2 sent 3\n" + list + "\n", canaries)
    for canary in canaries { #expect(names(findings, canary) == ["gzip → byte-list"]) }
  }

  @Test(
    .enabled(if: SplitSearch.hasSecondProcessor, "the text is searched as two parts on two processors only"))
  func aListRightAfterTheTwoPartsCutIsRead() throws {
    let (data, canaries) = body()
    guard let gzipped = try gzipCompressedBytes(data) else { return }
    // Over 256 KiB, the text is decoded as two parts cut after the last line feed before its
    // middle: there `sent 3` ends the first part, and the list starts the second at another column.
    let total = DecodingPass.bytesWorthASecondThread + 40_000
    let junk = "request 7 sent 3\n"
    let list = gzipped.map { "    \($0)," }.joined(separator: "\n") + "\n"
    func filler(_ count: Int) -> String {
      let lines = String(repeating: "2026-12-07T10:00:00.000Z INFO request done\n", count: count / 43 + 1)
      return String(lines.prefix(count - 1)) + "\n"
    }
    let head = filler(total / 2 - junk.utf8.count)
    let text = head + junk + list + filler(total - head.utf8.count - junk.utf8.count - list.utf8.count)
    #expect(text.utf8.count == total)
    let (findings, _) = scan(text, canaries)
    for canary in canaries { #expect(names(findings, canary) == ["gzip → byte-list"]) }
  }

  /// `data` compressed by Python's gzip, or `nil` after recording that the test did not run.
  func gzipCompressedBytes(_ data: Data) throws -> [UInt8]? {
    guard let hex = try DecodedRenderings.python("gzip.compress(d).hex().encode()", data) else { return nil }
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return bytes
  }

  @Test(arguments: [0, 1, 2, 3, 5, 8, 13]) func aListCrossingTheBuffersEndIsReadWhole(_ shift: Int) {
    let (data, canaries) = body()
    let list = render("pretty JSON", data)
    // Small buffers and twelve copies apart by other lengths: the lists' lines fall across
    // several reads, at another line each time, and every copy is found.
    let copies = 12
    let text = (0..<copies).map { copy in
      String(repeating: "x", count: 200 + (shift * 37 + copy * 311) % 997) + "\n" + list + "\n"
    }.joined()
    let (findings, source) = scan(text, canaries, chunkSize: 4096)
    #expect(source.status.failureReason == nil)
    for canary in canaries {
      let found = findings.filter { $0.canary.value == canary.value }
      let names = found.map(\.encoding)
      #expect(found.count == copies && Set(names) == ["byte-list"], "shift \(shift): \(names)")
    }
  }

  @Test func aLongListIsReadInPiecesAndFoundWhole() {
    let (data, canaries) = body()
    // Hundreds to thousands of numbers before the body: the list is read in overlapping pieces,
    // and the body falls across the joins of two of them at some of these lengths.
    for lead in stride(from: 300, to: 2400, by: 61) {
      let bytes = Data(repeating: 65, count: lead) + data + Data(repeating: 66, count: 700)
      let (findings, source) = scan("body:\n" + render("pretty JSON", bytes) + "\n", canaries)
      #expect(source.status.failureReason == nil)
      for canary in canaries { #expect(names(findings, canary) == ["byte-list"], "lead \(lead)") }
    }
  }

  @Test(arguments: 0..<24) func aLongListOverManyReadsIsFoundOncePerCopy(_ shift: Int) {
    let (data, canaries) = body()
    // Five copies of the body in one list of thousands of numbers, over 16 KiB reads: the pieces
    // and the reads cut it at other numbers, and each copy is reported once.
    let copies = 5
    var bytes = Data(repeating: 65, count: 29 * shift)
    for copy in 0..<copies { bytes += data + Data(repeating: UInt8(66 + copy), count: 450 + 131 * copy) }
    let (findings, source) = scan(
      "body:\n" + render("pretty JSON", bytes) + "\n", canaries, chunkSize: 1 << 14)
    #expect(source.status.failureReason == nil, "\(source.status)")
    for canary in canaries {
      let names = findings.filter { $0.canary.value == canary.value }.map(\.encoding)
      #expect(names == Array(repeating: "byte-list", count: copies), "shift \(shift)")
    }
  }

  @Test func aLongListBeginningAsAPayloadIsInconclusive() throws {
    let random = Data((0..<3000).map { _ in UInt8.random(in: 0...255) })
    guard let gzipped = try gzipCompressedBytes(random) else { return }
    var options = ScanOptions()
    options.decodingLimits.maxRunBytes = 4096
    let (_, canaries) = body()
    let scanner = LeakScanner(canaries: canaries, options: options)
    let text = "body:\n" + render("pretty JSON", Data(gzipped)) + "\n"
    let (_, source) = scanner.scan(.bytes(Data(text.utf8), name: "app.log"))
    #expect(source.status.failureReason?.contains("DecodingLimits.maxRunBytes") == true, "\(source.status)")
    // A plain list as long is read in pieces, and the source stays conclusive.
    let plain = "body:\n" + render("pretty JSON", Data(repeating: 65, count: 3000)) + "\n"
    #expect(scanner.scan(.bytes(Data(plain.utf8), name: "app.log")).1.status.failureReason == nil)
  }
}

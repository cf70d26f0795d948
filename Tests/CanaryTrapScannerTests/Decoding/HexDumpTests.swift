import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Hex dumps made with the real tools (`xxd`, `hexdump`, `od`): a value cut at a dump line's end,
/// too little of it on each line for a fragment, is read whole as `hex-dump`; lines whose offsets
/// do not follow on are never joined, and dumps of random bytes hold nothing.
@Suite struct HexDumpTests {
  let generator = CanaryGenerator()

  /// A 20-byte token at offset 8 of the body: 8 bytes on a dump's first line of 16, 12 on the
  /// next, each under the 16-byte fragment minimum.
  func body() -> (Data, Canary) {
    let token = Canary(value: String(generator.makeValue(.token).prefix(20)), location: .custom("token"))
    return (Data(#"{"tok":"\#(token.value)","n":1}"#.utf8), token)
  }

  func scan(_ text: String, _ canaries: [Canary]) -> ([LeakFinding], ScannedSource) {
    LeakScanner(canaries: canaries).scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  /// What `tool arguments` prints for `data`, or `nil` after recording that the test did not run.
  static func dump(
    _ tool: String, _ arguments: [String], _ data: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String? {
    guard ExternalTools.require(tool, for: "this hex dump test", sourceLocation: sourceLocation) != nil else {
      return nil
    }
    guard let output = try ExternalTool.run(tool, arguments, input: data) else {
      Issue.record("\(tool) \(arguments) failed", sourceLocation: sourceLocation)
      return nil
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// `xxd`, `xxd -g4`, `hexdump -C` (SwiftNIO's `.detailed` format), `hexdump` and `od -x`
  /// (little-endian words), `od -A x -t x1z`, and `od -t x1` (octal offsets).
  static let tools: [(tool: String, arguments: [String])] = [
    ("xxd", []), ("xxd", ["-g", "4"]), ("hexdump", ["-C"]), ("hexdump", []),
    ("od", ["-A", "x", "-t", "x1z"]),
    ("od", ["-t", "x1"]), ("od", ["-x"]),
  ]

  @Test(arguments: tools.indices, [true, false])
  func aValueCutAcrossDumpLinesIsFoundAndItsTwinIsClean(tool: Int, leak: Bool) throws {
    let (data, token) = body()
    let (other, _) = body()
    let (name, arguments) = Self.tools[tool]
    guard let dump = try Self.dump(name, arguments, leak ? data : other) else { return }
    let (findings, source) = scan("2026-12-06T10:00:00Z DEBUG response body:\n\(dump)after\n", [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.map(\.encoding) == (leak ? ["hex-dump"] : []), "\(name) \(arguments):\n\(dump)")
    #expect(findings.map(\.line) == (leak ? [2] : []))
  }

  /// `xxd` prints a dump's odd last byte as a group of its own (`9fff 05`): it is read, so a
  /// value ending the bytes is read whole, not as a fragment.
  @Test func anOddLastByteIsRead() throws {
    let (_, token) = body()
    let data = Data((#"{"n":12,"tok":""# + token.value).utf8)
    #expect(data.count % 2 == 1)
    guard let dump = try Self.dump("xxd", [], data) else { return }
    let (findings, source) = scan("body:\n\(dump)", [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.map(\.encoding) == ["hex-dump"], "\(dump)")
  }

  /// A dump of compressed bytes is opened: gzip from the real `gzip`, and raw deflate from
  /// Python, an odd number of bytes so its last one stands alone in `xxd`'s dump; the twin, the
  /// same dumps of another body, is clean.
  @Test(arguments: [true, false])
  func aDumpOfACompressedPayloadIsOpened(leak: Bool) throws {
    let (data, token) = body()
    let (other, _) = body()
    guard ExternalTools.require("gzip", for: "this hex dump test") != nil,
      let gzip = try ExternalTool.run("gzip", ["-c", "-n"], input: leak ? data : other),
      let deflated = try DecodedRenderings.python(
        "base64.b64encode(next(c for c in ((lambda o: o.compress(d + b' ' * k) + o.flush())"
          + "(zlib.compressobj(9, zlib.DEFLATED, -15)) for k in range(64)) if len(c) % 2 == 1))",
        leak ? data : other),
      let deflate = Data(base64Encoded: deflated)
    else { return }
    for (payload, name) in [(gzip, "gzip → hex-dump"), (deflate, "deflate → hex-dump")] {
      for (tool, arguments) in [("xxd", []), ("hexdump", ["-C"])] {
        guard let dump = try Self.dump(tool, arguments, payload) else { return }
        let (findings, source) = scan("2026-12-06T10:00:00Z DEBUG upload:\n\(dump)done\n", [token])
        #expect(source.status.failureReason == nil)
        #expect(findings.map(\.encoding) == (leak ? [name] : []), "\(tool) \(arguments):\n\(dump)")
      }
    }
  }

  /// Each line logged on its own, behind the logger's timestamp and tag, is still one dump.
  @Test func dumpLinesBehindALogPrefixJoin() throws {
    let (data, token) = body()
    guard let dump = try Self.dump("xxd", [], data) else { return }
    let lines = dump.split(separator: "\n").enumerated().map { index, line in
      "2026-12-06T10:00:0\(index).125Z DEBUG [net] \(line)\n"
    }
    let (findings, source) = scan(lines.joined(), [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.map(\.encoding) == ["hex-dump"])
  }

  /// `hexdump -C` and `od` print `*` for lines that repeat the one before: the lines after it
  /// are a dump of their own.
  @Test(arguments: [("hexdump", ["-C"]), ("od", ["-A", "x", "-t", "x1z"])])
  func linesAfterARepeatMarkJoin(tool: String, arguments: [String]) throws {
    let (data, token) = body()
    guard let dump = try Self.dump(tool, arguments, Data(count: 48) + data) else { return }
    #expect(dump.contains("\n*\n"))
    let (findings, source) = scan("body:\n\(dump)", [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.map(\.encoding) == ["hex-dump"])
  }

  /// A line whose offset does not follow on from the lines before is not part of their dump:
  /// the halves of a value on it and the line before are not joined; with the offset in order
  /// they are.
  @Test(arguments: [0x20, 0x40])
  func linesJoinOnlyWhenTheirOffsetsFollowOn(thirdOffset: Int) {
    let (data, token) = body()
    func line(_ offset: Int, _ bytes: Data) -> String {
      let groups = stride(from: 0, to: bytes.count, by: 2).map { index in
        bytes[(bytes.startIndex + index)..<min(bytes.endIndex, bytes.startIndex + index + 2)]
          .map { String(format: "%02x", $0) }.joined()
      }
      return String(format: "%08x: ", offset) + groups.joined(separator: " ") + "\n"
    }
    let text =
      line(0, Data("{\"user\":{\"tags\":".utf8)) + line(0x10, data.prefix(16))
      + line(thirdOffset, data.dropFirst(16).prefix(16))
    let (findings, source) = scan(text, [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.map(\.encoding) == (thirdOffset == 0x20 ? ["hex-dump"] : []))
  }

  /// Dumps of random bytes that begin like the canary hold nothing, in every tool's format.
  @Test func dumpsOfLookAlikeBytesAreClean() throws {
    let (_, token) = body()
    var text = ""
    for (tool, arguments) in Self.tools {
      var bytes = Data(token.value.prefix(6).utf8)
      bytes.append(contentsOf: (0..<200).map { _ in UInt8.random(in: 0...255) })
      guard let dump = try Self.dump(tool, arguments, bytes) else { return }
      text += "body:\n\(dump)"
    }
    let (findings, source) = scan(text, [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.isEmpty)
  }
}

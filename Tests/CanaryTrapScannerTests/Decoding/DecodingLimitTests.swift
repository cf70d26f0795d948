import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Decoding is bounded under hostile input, and a run cut short by a limit is inconclusive,
/// never clean; each test has a twin under the limit that finds the planted canary.
@Suite struct DecodingLimitTests {
  let canary = Canary(value: CanaryGenerator().makeValue(.token), location: .custom("limits"))

  func scan(_ text: String, limits: DecodingLimits = DecodingLimits(), chunkSize: Int = 1 << 20) -> (
    [LeakFinding], ScannedSource
  ) {
    var options = ScanOptions()
    options.decodingLimits = limits
    let scanner = LeakScanner(canaries: [canary], options: options, chunkSize: chunkSize)
    return scanner.scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  @Test func aHexRunLongerThanTheLimitIsInconclusive() {
    // 2 MB of hex on one line, the canary at its end: longer than half the buffer.
    let hex = Data((String(repeating: "x", count: 1 << 20) + canary.value).utf8)
    let text = "dump: " + DecodedRenderings.nsData(hex) + "\n"
    // What follows the limit may still be decoded (here the run's end, holding the canary).
    let (_, source) = scan(text)
    let reason = source.status.failureReason ?? ""
    #expect(reason.contains("DecodingLimits.maxRunBytes"), "\(source.status)")
    // The twin: the same rendering of a short body is found, and the source is clean otherwise.
    let (found, clean) = scan("dump: " + DecodedRenderings.nsData(Data(canary.value.utf8)) + "\n")
    #expect(found.map(\.encoding) == ["nsdata-hex"])
    #expect(clean.status.failureReason == nil)
  }

  @Test func aRunLongerThanMaxRunBytesIsInconclusiveAtAnyLength() {
    var limits = DecodingLimits()
    limits.maxRunBytes = 256
    let long = DecodedRenderings.byteList(Data((String(repeating: "y", count: 400) + canary.value).utf8))
    let (_, source) = scan(
      String(repeating: "z", count: 3000) + "\n" + long + "\n", limits: limits, chunkSize: 1024)
    #expect(source.status.failureReason?.contains("DecodingLimits.maxRunBytes") == true, "\(source.status)")
    let short = DecodedRenderings.byteList(Data(canary.value.utf8))
    let (found, clean) = scan(
      String(repeating: "z", count: 3000) + "\n" + short + "\n", limits: limits, chunkSize: 1024)
    #expect(found.map(\.encoding) == ["byte-list"])
    #expect(clean.status.failureReason == nil)
  }

  /// A hex dump is read as one run: one of more text than ``DecodingLimits/maxRunBytes`` is
  /// inconclusive, at the end of the text or going on past a buffer.
  @Test(arguments: [1 << 20, 1024])
  func aHexDumpLongerThanMaxRunBytesIsInconclusive(chunkSize: Int) throws {
    var limits = DecodingLimits()
    limits.maxRunBytes = 256
    // Lines that differ from each other: `od` prints repeated lines as one `*`.
    let long = Data(((0..<400).map { String($0 % 10) }.joined() + canary.value).utf8)
    guard let dump = try HexDumpTests.dump("od", ["-A", "x", "-t", "x1z"], long),
      let short = try HexDumpTests.dump("od", ["-A", "x", "-t", "x1z"], Data(canary.value.utf8))
    else { return }
    let filler = String(repeating: "z", count: 3000) + "\n"
    let (_, source) = scan(filler + "body:\n" + dump, limits: limits, chunkSize: chunkSize)
    #expect(source.status.failureReason?.contains("DecodingLimits.maxRunBytes") == true, "\(source.status)")
    // The twin: a dump under the limit is read, and the source is clean otherwise.
    let (found, clean) = scan(filler + "body:\n" + short, limits: limits, chunkSize: chunkSize)
    #expect(found.map(\.encoding) == ["hex-dump"])
    #expect(clean.status.failureReason == nil)
  }

  /// Limits under which a run of 256 bytes is too long to decode.
  static let smallRuns: DecodingLimits = {
    var limits = DecodingLimits()
    limits.maxRunBytes = 256
    return limits
  }()

  /// What Python's `expression` makes of 1,500 random bytes in hex and then the canary: a payload
  /// whose text is far longer than ``smallRuns`` allows; `nil` without python3.
  func longPayload(_ expression: String) throws -> String? {
    let random = (0..<1500).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
    return try DecodedRenderings.python(expression, Data((random + canary.value).utf8))
  }

  /// Base64 of a compressed payload is also a stretch of URL characters: the percent decoding's
  /// view of it must not hide that it is too long to decode. The same with a `%XX` in it: too
  /// long to decode as percent-encoded text.
  @Test func aLongCompressedBase64RunIsInconclusiveWithOrWithoutAnEscape() throws {
    guard let encoded = try longPayload("base64.b64encode(gzip.compress(d))") else { return }
    for text in ["payload=" + encoded, "payload=%7B" + encoded] {
      let (_, source) = scan(
        String(repeating: "z", count: 3000) + "\n" + text + "\n", limits: Self.smallRuns, chunkSize: 1024)
      #expect(source.status.failureReason?.contains("DecodingLimits.maxRunBytes") == true, "\(source.status)")
    }
    // The twin: under the limit, the payload is opened and the canary found.
    let (found, clean) = scan(String(repeating: "z", count: 3000) + "\n" + "payload=" + encoded + "\n")
    #expect(found.map(\.encoding) == ["gzip → base64"])
    #expect(clean.status.failureReason == nil)
  }

  /// Base64 of a payload's base64 (a Kubernetes secret holding a Helm release) longer than
  /// ``DecodingLimits/maxRunBytes`` is inconclusive; it was judged clean. The twin: under the
  /// limit, it is opened and the canary found.
  @Test func aLongBase64OfABase64PayloadIsInconclusive() throws {
    guard let encoded = try longPayload("base64.b64encode(base64.b64encode(gzip.compress(d)))") else {
      return
    }
    let text = String(repeating: "z", count: 3000) + "\n  release: " + encoded + "\n"
    let (_, source) = scan(text, limits: Self.smallRuns, chunkSize: 1024)
    #expect(source.status.failureReason?.contains("DecodingLimits.maxRunBytes") == true, "\(source.status)")
    let (found, clean) = scan(text)
    #expect(found.map(\.encoding) == ["gzip → base64 → base64"])
    #expect(clean.status.failureReason == nil)
  }

  @Test func aCompressionBombInBase64IsInconclusive() throws {
    guard
      let bomb = try DecodedRenderings.python(
        "base64.b64encode(gzip.compress(b'\\0' * (40 << 20) + d))", Data(canary.value.utf8))
    else { return }
    let (findings, source) = scan("payload=\(bomb)\n")
    #expect(findings.isEmpty)
    #expect(
      source.status.failureReason?.contains("DecodingLimits.maxPayloadBytes") == true, "\(source.status)")
    // The twin: a payload under the limit is opened.
    guard
      let small = try DecodedRenderings.python(
        "base64.b64encode(gzip.compress(b'\\0' * (1 << 20) + d))", Data(canary.value.utf8))
    else { return }
    let (found, clean) = scan("payload=\(small)\n")
    #expect(found.map(\.encoding) == ["gzip → base64"])
    #expect(clean.status.failureReason == nil)
  }

  @Test func payloadsNestedPastTheDepthAreInconclusive() throws {
    // base64 of gzip of base64 of gzip...: each layer is two steps.
    let layer = "b'x=' + base64.b64encode(gzip.compress(d)) + b';'"
    func nested(_ depth: Int) throws -> String? {
      var expression = "d"
      for _ in 0..<depth { expression = layer.replacingOccurrences(of: "(d)", with: "(\(expression))") }
      return try DecodedRenderings.python(expression, Data(canary.value.utf8))
    }
    guard let twice = try nested(2), let thrice = try nested(3) else { return }
    let (found, clean) = scan(twice + "\n")
    #expect(found.map(\.encoding) == ["gzip → base64 → gzip → base64"])
    #expect(clean.status.failureReason == nil)
    let (findings, source) = scan(thrice + "\n")
    #expect(findings.isEmpty)
    #expect(source.status.failureReason?.contains("DecodingLimits.maxDepth") == true, "\(source.status)")
  }

  /// A Helm release (base64 of base64 of gzip) whose text holds a long hex string (130 digits,
  /// made by `random`) besides the canary: the hex, past the depth, begins as raw deflate may,
  /// but does not inflate, so nothing was left unread; in one release in nine it made the source
  /// inconclusive. The twin: hex of a real raw deflate stream there is a payload too deep to open.
  @Test func hexPastTheDepthThatDoesNotInflateLeavesTheSourceConclusive() throws {
    let hex =
      "8bd02485ffec3d54ce565ba4ea3c2e523cf2a6f7cfd85524db591e42a8b97311595971d8c826a7dbfab33eed7ecbaf"
      + "ae08a5ae8a5f233f9c383bb1aeb477bea33f"
    let release = "b'release: ' + base64.b64encode(base64.b64encode(gzip.compress(d)))"
    guard let text = try DecodedRenderings.python(release, Data((hex + " " + canary.value).utf8)) else {
      return
    }
    let (found, source) = scan(text + "\n")
    #expect(found.map(\.encoding) == ["gzip → base64 → base64"])
    #expect(source.status.failureReason == nil, "\(source.status)")
    let deflated =
      "b'release: ' + base64.b64encode(base64.b64encode(gzip.compress("
      + "(lambda c: c.compress(d) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15)).hex().encode()"
      + ")))"
    // Text that compresses little: its stream is longer than any digest's hex (128 digits).
    let printable = String(decoding: Array(0x21...0x7E) as [UInt8], as: UTF8.self)
    let padded = Data((printable + " " + canary.value).utf8)
    guard let deep = try DecodedRenderings.python(deflated, padded) else { return }
    let (_, inconclusive) = scan(deep + "\n")
    #expect(
      inconclusive.status.failureReason?.contains("DecodingLimits.maxDepth") == true, "\(inconclusive.status)"
    )
  }

  @Test func theTotalDecodedBytesAreBounded() {
    // Each line decodes 200 bytes of hex.
    var limits = DecodingLimits()
    limits.maxDecodedBytes = 1000
    let line = DecodedRenderings.nsData(Data(String(repeating: "w", count: 200).utf8)) + "\n"
    let (_, source) = scan(String(repeating: line, count: 10), limits: limits)
    #expect(
      source.status.failureReason?.contains("DecodingLimits.maxDecodedBytes") == true, "\(source.status)")
    let (_, clean) = scan(String(repeating: line, count: 4), limits: limits)
    #expect(clean.status.failureReason == nil)
  }
}

import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Base64 of the compressed formats known by their header besides gzip, zlib and zip: Apple's LZ4
/// framing is opened like bzip2 (in ``DecodedRenderings/compressed``); a format the scanner never
/// opens (xz here) makes the source inconclusive instead of clean.
@Suite struct HeaderedPayloadTests {
  let generator = CanaryGenerator()

  func body() -> (Data, Canary) {
    let token = Canary(value: generator.makeValue(.token), location: .custom("token"))
    return (Data(#"{"session":{"token":"\#(token.value)"}}"#.utf8), token)
  }

  func scan(_ text: String, _ canaries: [Canary]) -> ([LeakFinding], ScannedSource) {
    LeakScanner(canaries: canaries).scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  /// Apple's LZ4 framing of `d` (`bv41` blocks made with Python's `lz4.block`, the reference LZ4
  /// library, since Apple's encoder is not on this machine), base64-encoded.
  static let appleLZ4 = """
    base64.b64encode((lambda d: b''.join(b'bv41' + struct.pack('<II', len(p), len(c)) + c \
    for p, c in ((d[i:i+4096], lz4.block.compress(d[i:i+4096], store_size=False)) \
    for i in range(0, len(d), 4096))) + b'bv4$')(d))
    """

  static func python(_ expression: String, _ data: Data) throws -> String? {
    guard ExternalTools.requirePython("lz4.block", package: "lz4", for: "this Apple LZ4 payload test") else {
      return nil
    }
    let imported = "(lambda struct, lz4: \(expression))(__import__('struct'), __import__('lz4.block'))"
    return try DecodedRenderings.python(imported, data)
  }

  @Test(arguments: [false, true])
  func base64OfAppleLZ4IsOpenedAndItsTwinIsClean(leak: Bool) throws {
    let (data, token) = body()
    let other = Data(#"{"session":{"token":"\#(generator.makeValue(.token))"}}"#.utf8)
    guard let encoded = try Self.python(Self.appleLZ4, leak ? data : other) else { return }
    #expect(encoded.hasPrefix("YnY0M"))  // "bv41"
    let (findings, source) = scan("before\n{\"crash\":\"\(encoded)\"}\nafter\n", [token])
    #expect(source.status.failureReason == nil)
    #expect(findings.map(\.encoding) == (leak ? ["lz4 → base64"] : []))
    #expect(findings.map(\.line) == (leak ? [2] : []))
  }

  /// xz is recognized and not opened: what it holds was not looked at, so the source is
  /// inconclusive, canary or not (the body is repeated so that xz compresses it rather than
  /// storing it, where the forward literals would find it); gzip beside it is read and clean.
  @Test func base64OfXzMakesTheSourceInconclusive() throws {
    guard
      ExternalTools.requirePython("lzma", package: "(Python built with liblzma)", for: "this xz payload test")
    else { return }
    let (data, token) = body()
    guard
      let xz = try DecodedRenderings.python("base64.b64encode(__import__('lzma').compress(d * 20))", data),
      let gzip = try DecodedRenderings.python("base64.b64encode(gzip.compress(b'nothing here'))", data)
    else { return }
    let (findings, source) = scan("payload=\(xz)\n", [token])
    #expect(findings.isEmpty)
    #expect(source.status.failureReason?.contains("xz-compressed, which is not opened here") == true)
    let (_, control) = scan("payload=\(gzip)\n", [token])
    #expect(control.status.failureReason == nil)
  }

  /// The header tests stop at the signatures: text that begins like them (`BZh`, `bv4`, `bvx`,
  /// `Rar!`), base64-encoded with a few random bytes after, is no payload.
  @Test func textBeginningLikeASignatureIsNoPayload() {
    let (_, token) = body()
    var text = ""
    for word in ["BZh9 is not bzip2", "bv41 is not lz4", "bvx is a word", "Rar! no", "7z"] {
      var bytes = Data(word.utf8)
      bytes.append(contentsOf: (0..<40).map { _ in UInt8.random(in: 0...255) })
      text += "payload=\(bytes.base64EncodedString())\n"
    }
    let (findings, source) = scan(text, [token])
    #expect(findings.isEmpty)
    #expect(source.status.failureReason == nil)
  }
}

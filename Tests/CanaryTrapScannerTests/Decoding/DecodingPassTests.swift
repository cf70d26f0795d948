import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// The scanner's other direction: bytes a log shows as Foundation's `Data` description, byte
/// lists and base64 of compressed payloads are decoded and searched, with fresh canaries each run.
@Suite struct DecodingPassTests {
  let generator = CanaryGenerator()

  /// A JSON body holding an e-mail and a password canary, as a client sends it.
  func body() -> (Data, [Canary]) {
    let email = Canary(value: generator.makeValue(.email), location: .custom("email"))
    let password = Canary(value: generator.makeValue(.password), location: .custom("password"))
    let object: [String: Any] = ["profile": ["email": email.value, "password": password.value]]
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return (data, [email, password])
  }

  func scan(_ text: String, _ canaries: [Canary], options: ScanOptions = ScanOptions()) -> (
    [LeakFinding], ScannedSource
  ) {
    LeakScanner(canaries: canaries, options: options).scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  func names(_ findings: [LeakFinding], _ canary: Canary) -> Set<String> {
    Set(findings.filter { $0.canary.value == canary.value }.map(\.encoding))
  }

  @Test func foundationsOwnDataDescriptionIsDecoded() {
    let (data, canaries) = body()
    let rendered = DecodedRenderings.nsData(data)
    let line = "2026-12-06 04:10:00 [api] PATCH /profile failed (422): \(rendered)\n"
    let (findings, source) = scan("starting\n" + line + "done\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["nsdata-hex"], "\(rendered)")
    // The password went through JSONSerialization, which writes `/` as `\/`.
    #expect(names(findings, canaries[1]) == ["json-escaped → nsdata-hex"], "\(rendered)")
    for finding in findings {
      #expect(finding.line == 2)
      #expect(finding.excerpt.allSatisfy { $0.isHexDigit || " .…<>\\".contains($0) })
    }
  }

  @Test func dataInsideADictionaryOrAnErrorIsDecoded() {
    let (data, canaries) = body()
    // swift-corelibs-foundation writes `body = 118 bytes` inside a dictionary, and an error's
    // user info in full; Apple's writes the description whose head and tail are shown.
    let error = NSError(domain: "API", code: 422, userInfo: ["body": data as NSData])
    for text in ["\(error)", error.description, "\(error.userInfo)"] {
      let (findings, _) = scan(text, canaries)
      #expect(names(findings, canaries[0]) == ["nsdata-hex"], "\(text)")
    }
    let token = Canary(value: generator.makeValue(.token), location: .custom("token"))
    let headed = DecodedRenderings.appleNSData(Data((token.value + String(repeating: " ", count: 40)).utf8))
    let nested = "{\n    body = \(headed);\n    status = 422;\n}"
    #expect(names(scan(nested, [token]).0, token) == ["fragment → nsdata-hex"], "\(nested)")
  }

  @Test func applesElidedDescriptionShowsAFragment() {
    let token = Canary(value: generator.makeValue(.token), location: .custom("token"))
    let data = Data((token.value + #"","scope":"profile"}"#).utf8)
    let rendered = DecodedRenderings.appleNSData(data)
    #expect(rendered.contains(" ... "))
    let (findings, _) = scan("response body: \(rendered)\n", [token])
    #expect(names(findings, token) == ["fragment → nsdata-hex"], "\(rendered)")
    // Short data is shown whole.
    let short = Canary(value: "cnry" + generator.randomSymbols(16), location: .custom("short"))
    let whole = DecodedRenderings.appleNSData(Data(short.value.utf8))
    #expect(!whole.contains("..."))
    #expect(names(scan(whole, [short]).0, short) == ["nsdata-hex"], "\(whole)")
  }

  /// SwiftNIO's description of a `ByteBuffer` over 64 bytes shows its first and last 32 in hex:
  /// what they hold of a value is a fragment. Shown whole, the forward `hex` literal finds it.
  @Test func nioElidedByteBufferShowsAFragment() {
    let token = Canary(value: generator.makeValue(.token), location: .custom("token"))
    let head = Data(
      (#"{"t":""# + token.value + #"","scope":"profile","note":"\#(String(repeating: "x", count: 40))"}"#)
        .utf8)
    let tail = Data(
      (#"{"scope":"profile","note":"\#(String(repeating: "x", count: 40))","t":""# + token.value
        + #"","z":1}"#)
        .utf8)
    for data in [head, tail] {
      let rendered = DecodedRenderings.nioByteBuffer(data)
      #expect(rendered.contains("..."))
      let (findings, source) = scan("response body: \(rendered)\n", [token])
      #expect(source.status.failureReason == nil)
      #expect(names(findings, token) == ["fragment → hex"], "\(rendered)")
    }
    // The twin: the same rendering with the shown part another value's.
    let other = Data(
      (#"{"t":""# + generator.makeValue(.token) + #"","note":"\#(String(repeating: "x", count: 60))"}"#).utf8)
    #expect(scan(DecodedRenderings.nioByteBuffer(other) + "\n", [token]).0.isEmpty)
    // Short data is shown whole.
    let whole = DecodedRenderings.nioByteBuffer(Data(token.value.utf8))
    #expect(!whole.contains("..."))
    #expect(names(scan(whole, [token]).0, token) == ["hex"], "\(whole)")
  }

  @Test func byteListsAreDecoded() {
    let (data, canaries) = body()
    let decimal = scan("body: \(DecodedRenderings.byteList(data))\n", canaries).0
    #expect(names(decimal, canaries[0]) == ["byte-list"])
    #expect(names(decimal, canaries[1]) == ["json-escaped → byte-list"])
    let hex = scan("let body: [UInt8] = [\(DecodedRenderings.hexByteList(data))]\n", canaries).0
    #expect(names(hex, canaries[0]) == ["hex-byte-list"])
    #expect(names(hex, canaries[1]) == ["json-escaped → hex-byte-list"])
  }

  @Test(arguments: DecodedRenderings.compressed.indices)
  func base64OfCompressedPayloadsIsOpened(_ index: Int) throws {
    let (expression, chain) = DecodedRenderings.compressed[index]
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python(expression, data) else { return }
    for text in [#"{"event":"batch","payload":"\#(encoded)"}"#, "Set-Cookie: session=\(encoded); Path=/"] {
      let (findings, source) = scan("before\n" + text + "\nafter\n", canaries)
      #expect(source.status.failureReason == nil)
      #expect(names(findings, canaries[0]) == [chain], "\(text)")
      #expect(names(findings, canaries[1]) == ["json-escaped → " + chain], "\(text)")
      #expect(findings.allSatisfy { $0.line == 2 })
    }
  }

  /// Base64 of a payload's base64, as a Kubernetes secret holds a Helm release (`base64` of
  /// `base64` of gzip), in YAML, in JSON and wrapped at 76 columns: opened for every payload with a header (gzip, zlib,
  /// zip, bzip2, from Python), named with both layers. The twin: the same layers of a body of
  /// other canaries of the same shapes give nothing.
  @Test(
    arguments: DecodedRenderings.compressed.indices.filter {
      !DecodedRenderings.compressed[$0].chain.hasPrefix("deflate")
    })
  func base64OfABase64PayloadIsOpened(_ index: Int) throws {
    let (expression, chain) = DecodedRenderings.compressed[index]
    let (data, canaries) = body()
    let (clean, _) = body()
    for (bytes, leaks) in [(data, true), (clean, false)] {
      guard let encoded = try DecodedRenderings.python("base64.b64encode(\(expression))", bytes) else {
        return
      }
      // Also as `base64` writes it, wrapped at 76 columns.
      let wrapped = stride(from: 0, to: encoded.count, by: 76).map {
        String(encoded.dropFirst($0).prefix(76))
      }.joined(separator: "\n")
      for text in [
        "data:\n  release: \(encoded)\nkind: Secret", #"{"kind":"Secret","data":{"release":"\#(encoded)"}}"#,
        wrapped,
      ] {
        let (findings, source) = scan("before\n" + text + "\nafter\n", canaries)
        #expect(source.status.failureReason == nil)
        #expect(names(findings, canaries[0]) == (leaks ? [chain + " → base64"] : []), "\(text)")
        #expect(names(findings, canaries[1]) == (leaks ? ["json-escaped → " + chain + " → base64"] : []))
      }
    }
  }

  /// A compressed payload reaches a log as hex too: Foundation's description of the `Data`, a
  /// byte list, `0x` bytes, plain hex (after `key=`, before `-end`). Each is opened (gzip from
  /// the real `gzip`); the twin, the same renderings of another body's gzip, is clean.
  @Test(arguments: [true, false])
  func compressedBytesShownAsHexOrBytesAreOpened(leak: Bool) throws {
    let (data, canaries) = body()
    let other = try JSONSerialization.data(withJSONObject: ["profile": ["email": "someone@example.com"]])
    guard ExternalTools.require("gzip", for: "this decoding test") != nil,
      let gzip = try ExternalTool.run("gzip", ["-c", "-n"], input: leak ? data : other)
    else { return }
    let hex = gzip.map { String(format: "%02x", $0) }.joined()
    let renderings: [(text: String, name: String)] = [
      (DecodedRenderings.nsData(gzip), "gzip → nsdata-hex"),
      (DecodedRenderings.byteList(gzip), "gzip → byte-list"),
      (DecodedRenderings.hexByteList(gzip), "gzip → hex-byte-list"),
      ("body=" + hex + "-end", "gzip → hex"),
      (hex.uppercased(), "gzip → hex"),
    ]
    for (text, name) in renderings {
      let (findings, source) = scan("before\n" + text + "\nafter\n", canaries)
      #expect(source.status.failureReason == nil)
      #expect(names(findings, canaries[0]) == (leak ? [name] : []), "\(text.prefix(60))")
      #expect(names(findings, canaries[1]) == (leak ? ["json-escaped → " + name] : []), "\(text.prefix(60))")
    }
  }

  /// A finding in a compressed payload is placed on the whole payload, which holds more than the
  /// canary (the app's other data, in a form anyone can decode): its excerpt shows the radius
  /// before it and the payload's first bytes only, then `…`; a short payload is shown whole.
  @Test func aPayloadsExcerptShowsItsStartOnly() throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", data) else {
      return
    }
    let (findings, _) = scan("upload payload=\(encoded) done\n", canaries)
    #expect(findings.count == 2)
    for finding in findings {
      #expect(finding.excerpt == "upload payload=" + encoded.prefix(20) + "…")
    }
    // The twin: a radius longer than the payload shows it whole, with no mark.
    var wide = ScanOptions()
    wide.excerptRadius = encoded.count + 10
    let (whole, _) = scan("upload payload=\(encoded) done\n", canaries, options: wide)
    #expect(whole.map(\.excerpt) == Array(repeating: "upload payload=\(encoded) done", count: 2))
  }

  /// A payload written straight before text in the other base64 alphabet (`…AAA-end`, a
  /// `_`-joined key after standard base64) is read with it: the text it ran into decodes to a
  /// few stray bytes after the payload's own and does not hide it.
  @Test(arguments: ["-end of batch", "_v2 sent"])
  func aPayloadRunningIntoTextOfTheOtherAlphabetIsOpened(suffix: String) throws {
    let (data, canaries) = body()
    guard
      let encoded = try DecodedRenderings.python(
        "(lambda t: t.rstrip(b'=') if b'+' in t or b'/' in t else b'')(base64.b64encode(gzip.compress(d)))",
        data)
    else { return }
    #expect(!encoded.isEmpty, "the payload's base64 holds neither + nor /")
    let (findings, source) = scan("batch=" + encoded + suffix + "\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"])
  }

  /// About one raw deflate stream in twenty begins with three printable bytes; its base64 must
  /// not pass for base64 of text (which is left to the forward literals).
  @Test func aDeflateStreamBeginningWithPrintableBytesIsOpened() throws {
    let (data, canaries) = body()
    // The body after a counter, raised until the stream's first three bytes are printable (in
    // fixed codes, which depend on the first characters only: `10 ` does it).
    let deflated =
      "(lambda c: c.compress(b'%d ' % n + d) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_FIXED))"
    let search = "next(r for r in (\(deflated) for n in range(100000)) if all(32 <= b < 127 for b in r[:3]))"
    guard let encoded = try DecodedRenderings.python("base64.b64encode(\(search))", data) else { return }
    let head = Data(base64Encoded: String(encoded.prefix(4)))!
    #expect(head.allSatisfy { $0 >= 32 && $0 < 127 }, "\(Array(head))")
    let (findings, source) = scan("before\npayload=\(encoded)\nafter\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["deflate → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → deflate → base64"])
  }

  /// SAML's redirect binding: raw deflate, base64, then percent-encoded into the URL.
  @Test func percentEncodedBase64OfADeflatedPayloadIsOpened() throws {
    let (data, canaries) = body()
    let deflated = "(lambda c: c.compress(d) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15))"
    guard
      let encoded = try DecodedRenderings.python(
        "urllib.parse.quote(base64.b64encode(\(deflated)), safe='').encode()", data)
    else { return }
    // A payload whose base64 holds no `+`, `/` or `=` (rare) has nothing percent-encoded.
    let chain = encoded.contains("%") ? "deflate → base64 → percent" : "deflate → base64"
    let line = "GET /sso?SAMLRequest=\(encoded)&RelayState=home HTTP/1.1"
    let (findings, source) = scan("before\n" + line + "\nafter\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == [chain], "\(line)")
    // Placed on the payload, after `GET /sso?SAMLRequest=`.
    #expect(findings.allSatisfy { $0.line == 2 && $0.column == 22 }, "\(findings.map(\.column))")
    // The twin: the same bytes of another payload, percent-encoded the same way, hold nothing.
    let control = try DecodedRenderings.python(
      "urllib.parse.quote(base64.b64encode(\(deflated)), safe='').encode()",
      Data(#"{"profile":{"email":"someone@example.com"}}"#.utf8))
    #expect(scan("GET /sso?SAMLRequest=\(control ?? "")\n", canaries).0.isEmpty)
  }

  /// `zip` writing to a pipe puts each member's sizes in a data descriptor after its data.
  @Test func base64OfAZipWrittenToAPipeIsOpened() throws {
    let (data, canaries) = body()
    guard ExternalTools.require("zip", for: "this decoding test") != nil,
      let archive = try ExternalTool.run("zip", ["-q", "-", "-"], input: data)
    else { return }
    #expect(archive.starts(with: [0x50, 0x4B, 0x03, 0x04]) && archive[6] & 0x08 != 0)
    let text = #"{"attachment":"\#(archive.base64EncodedString())"}"#
    let (findings, source) = scan("before\n" + text + "\nafter\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["zip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → zip → base64"])
    // The twin: the same archive of other bytes holds nothing.
    let other = Data(#"{"profile":{"email":"someone@example.com"}}"#.utf8)
    guard let control = try ExternalTool.run("zip", ["-q", "-", "-"], input: other) else { return }
    #expect(scan(#"{"attachment":"\#(control.base64EncodedString())"}"#, canaries).0.isEmpty)
  }

  /// An encrypted member is content never looked at: the source is inconclusive, not clean.
  @Test func base64OfAZipWithAnEncryptedMemberIsInconclusive() throws {
    let (data, canaries) = body()
    guard ExternalTools.require("zip", for: "this decoding test") != nil,
      let archive = try ExternalTool.run("zip", ["-q", "-P", "secret", "-", "-"], input: data)
    else { return }
    let (findings, source) = scan(#"{"attachment":"\#(archive.base64EncodedString())"}"#, canaries)
    #expect(findings.isEmpty)
    #expect(source.status.failureReason?.contains("is encrypted: its bytes were not read") == true)
  }

  @Test func aJSONEscapedBase64PayloadIsOpened() throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", data) else {
      return
    }
    let escaped = encoded.replacingOccurrences(of: "/", with: "\\/")
    let findings = scan(#"{"payload":"\#(escaped)"}"#, canaries).0
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
  }

  /// Feeds `text` to a stream of buffers of `chunkSize` bytes in pieces of every size, and
  /// calls `check` with each stream's findings.
  func streamed(
    _ text: String, _ canaries: [Canary], _ check: ([LeakFinding], ScanStream, String) -> Void
  ) {
    for chunkSize in [64, 100, 333, 1 << 20] {
      let scanner = LeakScanner(canaries: canaries, options: ScanOptions(), chunkSize: chunkSize)
      let bytes = Array(text.utf8)
      for piece in [1, 7, 4096] {
        let stream = scanner.makeStream(source: "s")
        var index = 0
        while index < bytes.count {
          stream.feed(bytes[index..<min(bytes.count, index + piece)])
          index += piece
        }
        check(stream.finish(), stream, "chunk \(chunkSize), pieces of \(piece)")
      }
    }
  }

  @Test func renderingsFoundAcrossBufferBoundaries() {
    let (data, canaries) = body()
    let line = "PATCH failed: \(DecodedRenderings.nsData(data)) and \(DecodedRenderings.byteList(data))\n"
    let text = String(repeating: "filler line of the log\n", count: 40) + line + "tail\n"
    streamed(text, canaries) { findings, stream, context in
      #expect(names(findings, canaries[0]) == ["nsdata-hex", "byte-list"], "\(context)")
      #expect(findings.count == 4, "\(context): \(findings.map(\.encoding))")
      #expect(stream.decodingCutShort == nil)
    }
  }

  /// A JSON body sent as a query parameter (a GraphQL GET's `variables`), percent-encoded by
  /// `URLComponents`: what JSONSerialization escaped (`\/`) is found under the percent encoding.
  /// The e-mail, which neither escapes, stands in the URL as it is and is named `raw` once.
  @Test func aJSONBodyInAQueryParameterIsDecoded() throws {
    let (data, canaries) = body()
    let line = "GET " + DecodedRenderings.graphQLQuery(data) + " HTTP/1.1"
    let (findings, source) = scan("before\n" + line + "\nafter\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["raw"], "\(line)")
    #expect(names(findings, canaries[1]) == ["json-escaped → percent"], "\(line)")
    #expect(findings.count == 2 && findings.allSatisfy { $0.line == 2 }, "\(findings.map(\.encoding))")
    // Placed on the password's own characters, not on the whole query.
    let password = try #require(findings.first { $0.canary.value == canaries[1].value })
    let column = line.utf8.count - line.utf8.drop { $0 != UInt8(ascii: "%") }.count
    #expect(password.column > column + 20)
    // Across buffer boundaries, found the same, once.
    let text = String(repeating: "filler line of the log\n", count: 40) + line + "\ntail\n"
    streamed(text, canaries) { findings, stream, context in
      #expect(names(findings, canaries[1]) == ["json-escaped → percent"], "\(context)")
      #expect(findings.count == 2, "\(context): \(findings.map(\.encoding))")
      #expect(stream.decodingCutShort == nil)
    }
  }

  /// The same body as a form-encoded value (Python's `quote_plus`: a space is `+`).
  @Test func aJSONBodyInAFormValueIsDecoded() throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python("urllib.parse.quote_plus(d).encode()", data) else {
      return
    }
    let (findings, source) = scan("POST /graphql body=variables=\(encoded)&operation=Profile\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[1]) == ["json-escaped → form"], "\(encoded)")
    // The e-mail's `@` is escaped by every encoder: one name, the forward literal's.
    #expect(names(findings, canaries[0]).count == 1, "\(findings.map(\.encoding))")
    #expect(findings.count == 2, "\(findings.map(\.encoding))")
  }

  /// Controls: the same renderings of random bytes sharing the canaries' prefix find nothing.
  @Test func lookAlikesAreClean() throws {
    let (_, canaries) = body()
    var text = ""
    for _ in 0..<4 {
      var random = Data("cnry".utf8)
      random.append(contentsOf: (0..<80).map { _ in UInt8.random(in: 0...255) })
      let look = Data(("cnry" + generator.randomSymbols(40)).utf8)
      for data in [random, look] {
        text += DecodedRenderings.nsData(data) + "\n" + DecodedRenderings.appleNSData(data) + "\n"
        text += DecodedRenderings.byteList(data) + "\n" + DecodedRenderings.hexByteList(data) + "\n"
        text += DecodedRenderings.nioByteBuffer(data + data) + "\n"
        text += "GET " + DecodedRenderings.graphQLQuery(data) + "\n"
        for (expression, _) in DecodedRenderings.compressed {
          guard let encoded = try DecodedRenderings.python(expression, data) else { return }
          text += encoded + "\n"
        }
      }
    }
    let (findings, source) = scan(text, canaries)
    #expect(findings.isEmpty, "\(findings.map { ($0.encoding, $0.excerpt) })")
    #expect(source.status.failureReason == nil)
    // The twin: one real canary among them is found.
    let planted = text + DecodedRenderings.nsData(Data(canaries[0].value.utf8)) + "\n"
    #expect(names(scan(planted, canaries).0, canaries[0]) == ["nsdata-hex"])
  }
}

/// A wrapped message is one message: a continuation line's prefix of the same shape as the line
/// before (a counter, a timestamp, logcat's pid), numbers differing, is layout.
@Suite struct VaryingPrefixTests {
  @Test(arguments: [
    ("[net 3/14] ", "[net 4/14] "), ("[net 9/14] ", "[net 10/14] "),
    ("2026-12-06 04:10:00.125 ", "2026-12-06 04:10:00.131 "), ("D/Net( 123): ", "D/Net( 123): "),
  ])
  func aCanaryCutUnderAVaryingPrefixIsFound(_ first: String, _ next: String) {
    let canary = Canary(value: CanaryGenerator().makeValue(.token), location: .custom("wrapped"))
    // At 15, neither piece of the 30-byte token is a fragment: only the joined lines hold it.
    for cut in [12, 15, 20] {
      let value = canary.value
      let text =
        first + "POST /login token=" + value.prefix(cut) + "\n" + next + value.dropFirst(cut) + " ok\n"
      let findings = LeakScanner(canaries: [canary]).scan(Data(text.utf8), source: "log")
      #expect(findings.map(\.encoding) == ["raw"], "\(text)")
      #expect(findings.first?.line == 1)
    }
    // The twin: under a prefix of another shape the cut value is not joined.
    let other =
      first + "POST /login token=" + canary.value.prefix(15) + "\nWARN other " + canary.value.dropFirst(15)
    #expect(LeakScanner(canaries: [canary]).scan(Data(other.utf8), source: "log").isEmpty)
  }

  /// A value whose middle fills a continuation line of its own: head and tail shorter than a
  /// fragment, the middle neither, so only the three lines joined hold it.
  @Test(arguments: [("[net 3/14] ", "[net 4/14] ", "[net 5/14] "), ("", "", "")])
  func aValueWrappedOverThreeLinesIsFound(_ first: String, _ second: String, _ third: String) {
    let canary = Canary(value: CanaryGenerator().makeValue(.token), location: .custom("wrapped"))
    let value = Array(canary.value)
    let basic = Data(("user:" + canary.value).utf8).base64EncodedString()
    // Cut so that the head is under the 16-byte fragment minimum and the middle is a line.
    let shapes = [(value, 12, 12, "raw"), (Array("Authorization: Basic " + basic), 31, 20, "base64")]
    for (shown, cut, middle, name) in shapes {
      let text =
        first + "PATCH /profile " + String(shown[..<cut]) + "\n" + second
        + String(shown[cut..<(cut + middle)]) + "\n" + third + String(shown[(cut + middle)...]) + " done\n"
      let findings = LeakScanner(canaries: [canary]).scan(Data(text.utf8), source: "log")
      #expect(findings.map(\.encoding) == [name], "\(text)")
      #expect(findings.first?.line == 1)
      // The twin: lines under prefixes of other shapes are other messages.
      let other =
        first + "PATCH /profile " + String(shown[..<cut]) + "\nWARN other: "
        + String(shown[cut..<(cut + middle)]) + "\nERROR x: " + String(shown[(cut + middle)...]) + " done\n"
      #expect(LeakScanner(canaries: [canary]).scan(Data(other.utf8), source: "log").isEmpty, "\(other)")
    }
  }
}

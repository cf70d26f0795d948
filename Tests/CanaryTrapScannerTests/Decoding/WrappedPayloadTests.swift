import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Base64 of a compressed payload wrapped into lines is one payload: MIME's 76 columns (`base64`,
/// Python's `encodebytes`), PEM's 64, CRLF too, and a wrapping logger's lines under a prefix.
/// The canaries lie past the first line, behind a random field, so the first line alone shows
/// none of them.
@Suite struct WrappedPayloadTests {
  let generator = CanaryGenerator()

  /// A JSON body whose e-mail and password canaries follow 600 random hex digits.
  func body() -> (Data, [Canary]) {
    let email = Canary(value: generator.makeValue(.email), location: .custom("email"))
    let password = Canary(value: generator.makeValue(.password), location: .custom("password"))
    let trace = (0..<300).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    let object: [String: Any] = [
      "a_trace": trace, "profile": ["email": email.value, "password": password.value],
    ]
    return (try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), [email, password])
  }

  func scan(_ text: String, _ canaries: [Canary], options: ScanOptions = ScanOptions()) -> (
    [LeakFinding], ScannedSource
  ) {
    LeakScanner(canaries: canaries, options: options).scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  func names(_ findings: [LeakFinding], _ canary: Canary) -> Set<String> {
    Set(findings.filter { $0.canary.value == canary.value }.map(\.encoding))
  }

  /// Python expressions wrapping base64 of compressed bytes into lines, by the chain they name.
  static let wrapped: [(expression: String, chain: String)] = [
    ("base64.encodebytes(gzip.compress(d))", "gzip → base64"),
    ("base64.encodebytes(zlib.compress(d)).replace(b'\\n', b'\\r\\n')", "zlib → base64"),
    (
      "b'\\n'.join((lambda s: [s[i:i + 64] for i in range(0, len(s), 64)])(base64.b64encode((lambda c: c.compress(d) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15)))))",
      "deflate → base64"
    ),
  ]

  @Test(arguments: wrapped.indices)
  func aPayloadWrappedIntoLinesIsOpened(_ index: Int) throws {
    let (expression, chain) = Self.wrapped[index]
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python(expression, data) else { return }
    let lines = encoded.split(whereSeparator: \.isNewline)
    #expect(lines.count >= 6, "\(lines.count) lines")
    let text = "upload batch:\n" + encoded + (encoded.hasSuffix("\n") ? "" : "\n") + "done\n"
    let (findings, source) = scan(text, canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == [chain])
    #expect(names(findings, canaries[1]) == ["json-escaped → " + chain])
    #expect(
      findings.allSatisfy { $0.line == 2 && $0.column == 1 }, "\(findings.map { ($0.line, $0.column) })")
    // The twin: not joined, the same lines hide both canaries, which lie past the first line.
    var unjoined = ScanOptions()
    unjoined.joinsWrappedLines = false
    #expect(scan(text, canaries, options: unjoined).0.isEmpty)
  }

  /// A payload wrapped before it went into a JSON string: its line breaks are `\n` or `\r\n`
  /// escapes inside one run (Python's `encodebytes` under `json.dumps`, Foundation's
  /// `.lineLength76Characters` under JSONSerialization).
  @Test func aWrappedPayloadInAJSONStringIsOpened() throws {
    let (data, canaries) = body()
    guard
      let python = try DecodedRenderings.python(
        "json.dumps({'attachment': base64.encodebytes(gzip.compress(d)).decode()}).encode()", data),
      let gzip = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", data),
      let compressed = Data(base64Encoded: gzip)
    else { return }
    let wrapped = compressed.base64EncodedString(options: [.lineLength76Characters])
    #expect(wrapped.contains("\r\n"))
    let foundation = String(
      decoding: try JSONSerialization.data(withJSONObject: ["attachment": wrapped]), as: UTF8.self)
    for text in [python, foundation] {
      #expect(text.contains(#"\n"#))
      let (findings, source) = scan("before\n\(text)\nafter\n", canaries)
      #expect(source.status.failureReason == nil)
      #expect(names(findings, canaries[0]) == ["gzip → base64"], "\(text.prefix(120))")
      #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"], "\(text.prefix(120))")
    }
  }

  /// `gzip` and coreutils' `base64`, which wraps at 76 columns unless told otherwise.
  @Test func gzipThroughTheBase64CommandIsOpened() throws {
    let (data, canaries) = body()
    guard ExternalTools.require("gzip", for: "this decoding test") != nil,
      ExternalTools.require("base64", for: "this decoding test") != nil,
      let compressed = try ExternalTool.run("gzip", ["-c", "-9"], input: data),
      let encoded = try ExternalTool.run("base64", [], input: compressed)
    else { return }
    let text = "attachment follows\n" + String(decoding: encoded, as: UTF8.self)
    let (findings, source) = scan(text, canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"])
  }

  /// A logger that wraps each message at 64 columns and writes its prefix (a timestamp, a
  /// counter) before every line.
  @Test func aPayloadWrappedUnderALoggersPrefixIsOpened() throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", data) else {
      return
    }
    let text =
      "2026-12-06T10:00:00.000Z I app: started\n" + Self.loggerLines("upload batch=" + encoded)
      + "2026-12-06T10:00:09.999Z I app: done\n"
    let (findings, source) = scan(text, canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"])
    #expect(findings.allSatisfy { $0.line == 2 }, "\(findings.map(\.line))")
    // The twin: the same payload of other bytes, wrapped the same way, holds nothing.
    let other = try DecodedRenderings.python(
      "base64.b64encode(gzip.compress(d))", Data(#"{"profile":{"email":"someone@example.com"}}"#.utf8))
    #expect(scan("2026-12-06T10:00:00.000Z D net [1/1] upload batch=\(other ?? "")\n", canaries).0.isEmpty)
  }

  /// A message logged in chunks of 64 columns under Python logging's prefix, which ends in `:`,
  /// not a blank (`DEBUG:app:`).
  @Test func aPayloadWrappedUnderPythonLoggingsPrefixIsOpened() throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", data) else {
      return
    }
    let message = Array("upload batch=" + encoded)
    let lines = stride(from: 0, to: message.count, by: 64).map {
      "DEBUG:app:" + String(message[$0..<min(message.count, $0 + 64)]) + "\n"
    }
    let (findings, source) = scan("DEBUG:app:started\n" + lines.joined(), canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"])
    #expect(findings.allSatisfy { $0.line == 2 }, "\(findings.map(\.line))")
  }

  /// A payload that starts near its first line's end, which shows 1 to 15 of its characters
  /// (too few for a run: the run found first is on the next line). The twin: the same payload of
  /// other bytes, placed the same way, holds nothing.
  @Test(arguments: [1, 2, 4, 9, 15])
  func aPayloadStartingNearItsLinesEndIsOpened(shown: Int) throws {
    let (data, canaries) = body()
    let other = Data(#"{"profile":{"email":"someone@example.com","pad":"0123456789abcdef"}}"#.utf8)
    for (bytes, leaks) in [(data, true), (other, false)] {
      guard let encoded = try DecodedRenderings.python("base64.b64encode(gzip.compress(d))", bytes) else {
        return
      }
      let lead = String(repeating: "x", count: 64 - shown - 13) + " upload data="
      let text = Self.loggerLines(lead + encoded)
      #expect(text.split(separator: "\n")[0].hasSuffix("data=" + encoded.prefix(shown)))
      let (findings, source) = scan(text, canaries)
      #expect(source.status.failureReason == nil)
      #expect(names(findings, canaries[0]) == (leaks ? ["gzip → base64"] : []), "\(shown)")
      #expect(names(findings, canaries[1]) == (leaks ? ["json-escaped → gzip → base64"] : []), "\(shown)")
    }
  }

  /// Two payloads on consecutive lines under the same prefix, the first ending its line without
  /// padding: the join reads them as one, and each is still read on its own.
  @Test(arguments: [false, true])
  func aPayloadOnTheNextLineIsStillReadOnItsOwn(inWholeGroups: Bool) throws {
    let (_, canaries) = body()
    let second = try JSONSerialization.data(withJSONObject: ["profile": ["password": canaries[1].value]])
    // The first payload padded until its base64 is whole groups of four (or not): then the join
    // decodes the second as the gzip stream's next member, over both lines.
    var head: String?
    for padding in 0..<10 {
      let first = try JSONSerialization.data(
        withJSONObject: [
          "profile": ["email": canaries[0].value], "pad": String("0123456789".prefix(padding)),
        ])
      guard
        let encoded = try DecodedRenderings.python("base64.b64encode(gzip.compress(d)).rstrip(b'=')", first)
      else { return }
      if (encoded.count % 4 == 0) == inWholeGroups {
        head = encoded
        break
      }
    }
    let wholeOrNot = try #require(
      head, "no padding made the payload's base64 \(inWholeGroups ? "" : "not ")whole groups")
    guard let next = try DecodedRenderings.python("base64.b64encode(gzip.compress(d)).rstrip(b'=')", second)
    else { return }
    let text = "2026-12-06T10:00:00Z D net: \(wholeOrNot)\n2026-12-06T10:00:01Z D net: \(next)\n"
    let (findings, source) = scan(text, canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"])
    // Each is placed on its own line: the second is found in the join too, over both lines, and
    // the narrower match of the same chain is kept.
    let lines = findings.map { ($0.canary.value == canaries[0].value ? "first" : "second", $0.line) }
    #expect(lines.map(\.0) == ["first", "second"] && lines.map(\.1) == [1, 2], "\(lines)")
  }

  /// Lines of `message` cut at 64 columns, each under a logger's prefix (a timestamp, a counter).
  static func loggerLines(_ message: String) -> String {
    let characters = Array(message)
    let pieces = stride(from: 0, to: characters.count, by: 64).map {
      String(characters[$0..<min(characters.count, $0 + 64)])
    }
    return pieces.enumerated().map { index, piece in
      "2026-12-06T10:00:0\(index % 10).\(100 + index)Z D net [\(index + 1)/\(pieces.count)] \(piece)\n"
    }.joined()
  }

  /// A wrapped payload split between reads of every size is found once, under its name, its
  /// lines' prefix read from the line's start kept by the stream.
  @Test(arguments: [false, true])
  func aWrappedPayloadIsFoundAcrossBufferBoundaries(underAPrefix: Bool) throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python("base64.encodebytes(gzip.compress(d))", data) else {
      return
    }
    let wrapped =
      underAPrefix ? Self.loggerLines("upload batch=" + encoded.filter { !$0.isNewline }) : encoded
    let text = String(repeating: "filler line of the log\n", count: 40) + wrapped + "tail\n"
    for chunkSize in [4096, 5000, 1 << 20] {
      let scanner = LeakScanner(canaries: canaries, options: ScanOptions(), chunkSize: chunkSize)
      let bytes = Array(text.utf8)
      for piece in [1, 7, 333, 4096] {
        let stream = scanner.makeStream(source: "s")
        var index = 0
        while index < bytes.count {
          stream.feed(bytes[index..<min(bytes.count, index + piece)])
          index += piece
        }
        let findings = stream.finish()
        let context = "chunk \(chunkSize), pieces of \(piece)"
        #expect(names(findings, canaries[0]) == ["gzip → base64"], "\(context)")
        #expect(findings.count == 2, "\(context): \(findings.map(\.encoding))")
        #expect(findings.allSatisfy { $0.line == 41 }, "\(context): \(findings.map(\.line))")
        #expect(stream.decodingCutShort == nil, "\(context)")
      }
    }
  }

  /// Python's gzip with a file name of the length that makes the compressed stream a whole
  /// number of 57-byte groups, so `encodebytes` fills its last line to 76 columns.
  static let wholeLines =
    "(lambda gz: base64.encodebytes(next(c for c in map(gz, range(1, 58)) if len(c) % 57 == 0)))"
    + "(lambda k: (lambda b: (lambda f: (f.write(d), f.close(), b.getvalue())[2])"
    + "(gzip.GzipFile(filename='p' * k, mode='wb', fileobj=b, mtime=0)))(io.BytesIO()))"

  /// A payload whose last line is as wide as the others is followed by a log line whose start
  /// joins it (`2026-12-06T08` are base64 characters); those characters decode to a few stray
  /// bytes after the payload's own, and the payload is found. Before, the joined payload mixed
  /// `+/` with `-_` and was not read at all: the log was judged clean (about one run in 76 of
  /// `aWrappedPayloadAcrossTheSplitIsFound`).
  @Test(arguments: ["2026-12-06T08:00:00Z INFO GET /v1/items 200 12ms", "request_id=7 done"])
  func aPayloadWhoseLastLineIsFullIsReadBeforeTheNextLogLine(next: String) throws {
    let (data, canaries) = body()
    guard let encoded = try DecodedRenderings.python(Self.wholeLines, data) else { return }
    let lines = encoded.split(separator: "\n")
    #expect(lines.count >= 6 && lines.allSatisfy { $0.count == 76 }, "\(lines.map(\.count))")
    let (findings, source) = scan("upload batch:\n" + encoded + next + "\n", canaries)
    #expect(source.status.failureReason == nil)
    #expect(names(findings, canaries[0]) == ["gzip → base64"])
    #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"])
  }

  /// A large buffer is decoded in two parts cut at a line break: a wrapped payload the cut falls
  /// inside is followed from the first part into the second.
  @Test func aWrappedPayloadAcrossTheSplitIsFound() throws {
    let (data, canaries) = body()
    var padded = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    padded["a_trace"] = (0..<20_000).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    let large = try JSONSerialization.data(withJSONObject: padded, options: [.sortedKeys])
    guard let encoded = try DecodedRenderings.python("base64.encodebytes(gzip.compress(d))", large) else {
      return
    }
    let filler = String(repeating: "2026-12-06T08:00:00Z INFO GET /v1/items 200 12ms\n", count: 6_000)
    let text = filler + "upload batch:\n" + encoded + filler
    let bytes = Array(text.utf8)
    let middle = bytes.count / 2
    let payloadStart = filler.utf8.count + 14
    #expect(payloadStart < middle && middle < payloadStart + encoded.utf8.count)
    let scanner = LeakScanner(canaries: canaries, options: ScanOptions(), chunkSize: 1 << 20)
    for splits in [true, false] {
      let stream = scanner.makeStream(source: "app.log")
      stream.decodingSplits = splits
      stream.feed(bytes[...])
      let findings = stream.finish()
      #expect(names(findings, canaries[0]) == ["gzip → base64"], "splits: \(splits)")
      #expect(names(findings, canaries[1]) == ["json-escaped → gzip → base64"], "splits: \(splits)")
      #expect(stream.decodingCutShort == nil)
    }
  }
}

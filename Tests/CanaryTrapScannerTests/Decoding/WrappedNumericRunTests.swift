import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Hex groups, byte lists and plain hex that a logger wrapped into lines under its prefix are one
/// rendering: a value cut at a line's end is read whole, and a compressed payload shown that way
/// is opened (gzip and zlib from the real tools).
@Suite struct WrappedNumericRunTests {
  let generator = CanaryGenerator()

  /// A JSON body whose e-mail and password canaries follow a random field.
  func body() -> (Data, [Canary]) {
    let email = Canary(value: generator.makeValue(.email), location: .custom("email"))
    let password = Canary(value: generator.makeValue(.password), location: .custom("password"))
    let trace = (0..<40).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    let object: [String: Any] = [
      "a_trace": trace, "profile": ["email": email.value, "password": password.value],
    ]
    return (try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), [email, password])
  }

  func scan(_ text: String, _ canaries: [Canary], joins: Bool = true) -> ([LeakFinding], ScannedSource) {
    var options = ScanOptions()
    options.joinsWrappedLines = joins
    return LeakScanner(canaries: canaries, options: options).scan(.bytes(Data(text.utf8), name: "app.log"))
  }

  func names(_ findings: [LeakFinding], _ canary: Canary) -> Set<String> {
    Set(findings.filter { $0.canary.value == canary.value }.map(\.encoding))
  }

  /// `message` cut at `width` columns, each line under a counter and a timestamp.
  static func wrapped(_ message: String, width: Int) -> String {
    let characters = Array(message)
    let pieces = stride(from: 0, to: characters.count, by: width).map {
      String(characters[$0..<min(characters.count, $0 + width)])
    }
    return pieces.enumerated().map { index, piece in
      "2026-12-06T10:00:0\(index % 10).\(100 + index)Z D net [\(index + 1)/\(pieces.count)] \(piece)\n"
    }.joined()
  }

  /// The renderings of `data`, by the name a canary inside is found under.
  static func renderings(_ data: Data) -> [(text: String, name: String)] {
    [
      ("body: " + DecodedRenderings.nsData(data), "nsdata-hex"),
      ("body: " + DecodedRenderings.byteList(data), "byte-list"),
      ("body: " + DecodedRenderings.hexByteList(data), "hex-byte-list"),
    ]
  }

  @Test(arguments: [41, 64, 77])
  func aWrappedRenderingOfTheBodyIsReadWhole(width: Int) throws {
    let (data, canaries) = body()
    for (text, name) in Self.renderings(data) {
      let log = "2026-12-06T10:00:00.000Z D net request\n" + Self.wrapped(text, width: width) + "done\n"
      let (findings, source) = scan(log, canaries)
      #expect(source.status.failureReason == nil)
      #expect(names(findings, canaries[0]) == [name], "\(width) \(name)")
      #expect(names(findings, canaries[1]) == ["json-escaped → " + name], "\(width) \(name)")
    }
  }

  /// A `0x7B, 0x22` list cut at every width from 41 to 80 columns with no prefix, after a word
  /// whose last letters are hex digits (`payload`: the run starts with its `ad`) or at the line's
  /// start (then lines may start with the same bytes as the first, `0x22, 0x`, which are no
  /// prefix). The twin: a body of other canaries of the same shapes gives nothing.
  @Test(arguments: ["payload ", ""])
  func aHexByteListCutAtAnyWidthIsJoined(lead: String) throws {
    let (data, canaries) = body()
    let (clean, _) = body()  // other canaries of the same shapes
    for width in 41...80 {
      for (body, leaks) in [(data, true), (clean, false)] {
        let characters = Array(lead + DecodedRenderings.hexByteList(body))
        let lines = stride(from: 0, to: characters.count, by: width).map {
          String(characters[$0..<min(characters.count, $0 + width)]) + "\n"
        }
        let (findings, _) = scan(lines.joined(), canaries)
        #expect(names(findings, canaries[0]) == (leaks ? ["hex-byte-list"] : []), "\(width) \(lines)")
        #expect(names(findings, canaries[1]) == (leaks ? ["json-escaped → hex-byte-list"] : []), "\(width)")
      }
    }
  }

  /// A `0x7B, 0x22` list starting its line, cut at 30 columns (five bytes a line) so that the
  /// second line starts with the same bytes as the first (`{"a":{"email"…`: `0x7B, 0x22, 0x6`):
  /// the rendering's own bytes are no prefix, so the lines keep their width and are joined. The
  /// twin: a body of other canaries gives nothing.
  @Test(arguments: [true, false])
  func aLineStartingAsTheFirstDoesIsNoPrefix(leak: Bool) throws {
    let (_, canaries) = body()
    let (_, others) = body()
    let shown = leak ? canaries : others
    let inner = try JSONSerialization.data(
      withJSONObject: ["email": shown[0].value, "password": shown[1].value], options: [.sortedKeys])
    let json = #"{"a":"# + String(decoding: inner, as: UTF8.self) + "}"
    let characters = Array(DecodedRenderings.hexByteList(Data(json.utf8)))
    let lines = stride(from: 0, to: characters.count, by: 30).map {
      String(characters[$0..<min(characters.count, $0 + 30)]) + "\n"
    }
    #expect(lines[1].hasPrefix("0x7B, 0x22, 0x65"))
    let (findings, _) = scan(lines.joined(), canaries)
    #expect(names(findings, canaries[0]) == (leak ? ["hex-byte-list"] : []), "\(lines)")
    #expect(names(findings, canaries[1]) == (leak ? ["json-escaped → hex-byte-list"] : []))
  }

  /// Each rendering starting near its first line's end, which shows 0 to 14 of its characters
  /// (its `[` or `<` alone, or too few for a run: the run found first is on the next line). The
  /// twin: a body of other canaries of the same shapes gives nothing.
  @Test(arguments: [0, 1, 2, 5, 14])
  func aRenderingStartingNearItsLinesEndIsJoined(shown: Int) throws {
    let (data, canaries) = body()
    let (clean, _) = body()
    for (bytes, leaks) in [(data, true), (clean, false)] {
      for (text, name) in Self.renderings(bytes) {
        // `body: ` and then the rendering's first character, which `[` or `<` may be.
        let message = String(repeating: "x", count: 64 - shown - 7) + " " + text
        let log = Self.wrapped(message, width: 64)
        let (findings, _) = scan(log, canaries)
        #expect(names(findings, canaries[0]) == (leaks ? [name] : []), "\(shown) \(name)\n\(log)")
        #expect(names(findings, canaries[1]) == (leaks ? ["json-escaped → " + name] : []), "\(shown) \(name)")
      }
    }
  }

  /// A continuation whose hex groups start with a short number (`6163 65223a22 …`: the cut fell
  /// inside `74726163`) reads as a one-line hex dump; the lines are joined from the short piece
  /// on the line before it first. The layout of a CI run's failure (one body of random ones in
  /// about 150). The twin: one character of the e-mail changed is no whole value.
  @Test(arguments: [true, false])
  func aContinuationReadingAsADumpLineIsJoinedFromTheLineBefore(leak: Bool) throws {
    let email = Canary(value: "cnryagkhd3k0t9u6r3ecpgav06@example.invalid", location: .custom("email"))
    let shown = leak ? email.value : email.value.replacingOccurrences(of: "ag", with: "ah")
    let json = Self.recordedBody(
      trace: "098d2662c7bf76909799a4f3c31f26631655a97a0aa9d8bb0db82a4b4e4295cffb6ab74c9e24d03e", email: shown,
      password: "cnryxj4tc5s4d77btsmfzpsm64 }#|%P!&<\\/=")
    let message = String(repeating: "x", count: 43) + " body: " + DecodedRenderings.nsData(json)
    let log = Self.wrapped(message, width: 64)
    #expect(log.contains("[2/9] 6163 65223a22"), "\(log)")
    expectWhole(email, in: log, leaks: leak)
  }

  /// A `Data` description whose first groups read as a one-line hex dump (`<7b22615f 74726163 …`
  /// under `999 ms | 422 body=`, 77 columns: `7b22615f` the offset): numbers right after `<` or
  /// `[` are no dump's, so the lines are joined. The layout of a failure found by repeating the
  /// suite (one body of random ones in about fifty). The twin: one character of the e-mail
  /// changed is no whole value.
  @Test(arguments: [true, false])
  func aRenderingsFirstGroupsAreNoDumpLine(leak: Bool) throws {
    let email = Canary(value: "cnryy5e9aztrehutkf5t7aujfk@example.invalid", location: .custom("email"))
    let shown = leak ? email.value : email.value.replacingOccurrences(of: "y5", with: "y6")
    let json = Self.recordedBody(
      trace: "9bd90ca2a9614aba589c869c146aaa006adab682fddca9678f15fe47a22e670205ea6b8c1b70e9f9", email: shown,
      password: "cnryaabp8fbkfch6xcxmf3sjff |%^%P!&<\\/=")
    let characters = Array("422 body=" + DecodedRenderings.nsData(json))
    let log = stride(from: 0, to: characters.count, by: 77).enumerated().map { line, start in
      "\(999 + line) ms | " + String(characters[start..<min(characters.count, start + 77)]) + "\n"
    }.joined()
    #expect(log.contains("1000 ms | 3963 38363963"), "\(log)")
    expectWhole(email, in: log, leaks: leak)
  }

  /// The JSON body of a layout that failed with random bodies, as `body()` writes one (keys
  /// sorted, `/` escaped); `password` is written into the JSON as it is.
  static func recordedBody(trace: String, email: String, password: String) -> Data {
    Data(#"{"a_trace":"\#(trace)","profile":{"email":"\#(email)","password":"\#(password)"}}"#.utf8)
  }

  /// Expects `email` found whole in `log` as `nsdata-hex` when `leaks`, and not whole otherwise.
  func expectWhole(_ email: Canary, in log: String, leaks: Bool) {
    let (findings, _) = scan(log, [email])
    if leaks {
      #expect(names(findings, email) == ["nsdata-hex"], "\(log)")
    } else {
      #expect(!names(findings, email).contains("nsdata-hex"), "\(log)")
    }
  }

  /// A message that starts with a number (`422 body=<7b227072 …>`) wrapped at every width from
  /// 60 to 99 columns under a timestamp, under a counter and with no prefix: where a
  /// continuation's text starts with a number and a blank as the first line's does
  /// (`637 676d3432`, `9 39717861`), the lines are read both with that number as prefix and as
  /// the rendering's digits, so the value is found at every width. The twin: a body of other
  /// canaries of the same shapes gives nothing.
  @Test(arguments: ["stamp", "counter", "none"])
  func aContinuationStartingWithANumberAsTheFirstLineDoesIsRead(prefix: String) throws {
    let (data, canaries) = body()
    let (clean, _) = body()
    func lead(_ line: Int) -> String {
      switch prefix {
      case "stamp": "2026-12-06T10:00:0\(line).\(100 + 37 * line)Z D app: "
      case "counter": "\(999 + line) ms | "
      default: ""
      }
    }
    for width in 60..<100 {
      for (bytes, leaks) in [(data, true), (clean, false)] {
        let characters = Array("422 body=" + DecodedRenderings.nsData(bytes))
        let log = stride(from: 0, to: characters.count, by: width).enumerated().map { line, start in
          lead(line) + String(characters[start..<min(characters.count, start + width)]) + "\n"
        }.joined()
        let (findings, _) = scan(log, canaries)
        #expect(names(findings, canaries[0]) == (leaks ? ["nsdata-hex"] : []), "\(width)\n\(log)")
        #expect(names(findings, canaries[1]) == (leaks ? ["json-escaped → nsdata-hex"] : []), "\(width)")
      }
    }
  }

  /// A byte list wrapped over three lines whose last piece goes on after its prefix as the first
  /// line's text does (two numbers, `]", `): read against the first line, that piece would be
  /// taken for more prefix and the value's last bytes lost; the further lines are read against
  /// the first continuation's prefix, as the line junction pass reads them. (The first
  /// continuation starts with the blank after a comma, so it is not shaped as that text: a
  /// first continuation that is stays a known limit.) The twin: one byte of the value changed.
  @Test(arguments: [true, false])
  func aLastPieceShapedAsTheFirstLinesTextIsNotTakenForPrefix(leak: Bool) throws {
    let (_, canaries) = body()
    let password = canaries[1]
    var numbers = Array(password.value.utf8).map(String.init)
    if !leak { numbers[numbers.count - 1] = numbers[numbers.count - 1] == "49" ? "50" : "49" }
    let last = numbers.suffix(2).joined(separator: ", ") + "]"
    // The first line's text after its prefix: the last piece's shape with other digits.
    let shaped = String(last.map { $0.isNumber ? ($0 == "7" ? "8" : "7") : $0 })
    let middle = numbers.dropLast(2)
    let cut = middle.count / 2
    func stamp(_ second: Int) -> String { "2026-12-06T10:00:0\(second).\(100 * second)Z D app: " }
    let log =
      stamp(1) + "GET /v1/items 200\n" + stamp(3) + shaped + "\", \"bytes\": ["
      + middle.prefix(cut).joined(separator: ", ") + ",\n" + stamp(4) + " "
      + middle.dropFirst(cut).joined(separator: ", ") + ",\n" + stamp(5) + last + "\", password: redacted\n"
    let (findings, source) = scan(log, [password])
    #expect(source.status.failureReason == nil)
    #expect(names(findings, password).contains("byte-list") == leak, "\(log)")
  }

  /// Numbers a line merely ends with are no rendering: 20,000 rows of a table, all as wide, are not
  /// joined into one run (which would pass the longest run decoded and make the log inconclusive).
  @Test func aTableOfNumbersIsNotJoined() {
    let (_, canaries) = body()
    let rows = String(repeating: "12, 34, 56, 78, 90, 12, 34, 56, 78\n", count: 20_000)
    let (findings, source) = scan(rows, canaries)
    #expect(findings.isEmpty)
    #expect(source.status.failureReason == nil)
  }

  /// gzip, zlib and raw deflate from the real tools, shown as a `Data` description, a byte list
  /// and plain hex (after `: ` or a key), wrapped: opened. The twins: the same payloads of
  /// another body hold nothing, and without joining lines the payloads are not opened (the lines
  /// after the first hold the canaries).
  @Test(arguments: [true, false])
  func aWrappedCompressedPayloadIsOpened(leak: Bool) throws {
    let (data, canaries) = body()
    let (other, _) = body()
    guard ExternalTools.require("gzip", for: "this decoding test") != nil,
      let gzip = try ExternalTool.run("gzip", ["-c", "-n"], input: leak ? data : other),
      let zlib = try DecodedRenderings.python("base64.b64encode(zlib.compress(d))", leak ? data : other),
      let zlibBytes = Data(base64Encoded: zlib),
      let deflate = try DecodedRenderings.python(
        "base64.b64encode((lambda o: o.compress(d) + o.flush())(zlib.compressobj(6, zlib.DEFLATED, -15)))",
        leak ? data : other),
      let deflateBytes = Data(base64Encoded: deflate)
    else { return }
    let payloads: [(text: String, name: String)] = [
      ("upload: " + DecodedRenderings.nsData(gzip), "gzip → nsdata-hex"),
      ("upload: " + DecodedRenderings.byteList(gzip), "gzip → byte-list"),
      ("upload: " + zlibBytes.map { String(format: "%02x", $0) }.joined(), "zlib → hex"),
      ("upload data=" + gzip.map { String(format: "%02X", $0) }.joined(), "gzip → hex"),
      // Raw deflate has no header: its first line holds fewer digits than a digest's.
      ("upload data=" + deflateBytes.map { String(format: "%02x", $0) }.joined(), "deflate → hex"),
      ("upload: " + deflateBytes.map { String(format: "%02X", $0) }.joined(), "deflate → hex"),
    ]
    // An odd width cuts lines inside a byte's two digits; a width the text fills exactly makes
    // its last line full, so the next message's `done` (`d` a hex digit) starts a line that
    // could seem to continue it.
    for (text, name) in payloads {
      for width in [63, (40...120).first { text.count % $0 == 0 } ?? 64] {
        let log = Self.wrapped(text, width: width) + "2026-12-06T10:00:09.999Z D net done\n"
        let (findings, source) = scan(log, canaries)
        #expect(source.status.failureReason == nil)
        #expect(names(findings, canaries[0]) == (leak ? [name] : []), "\(name)")
        #expect(names(findings, canaries[1]) == (leak ? ["json-escaped → " + name] : []), "\(name)")
        if width == 63 { #expect(scan(log, canaries, joins: false).0.isEmpty, "\(name) unjoined") }
      }
    }
  }
}

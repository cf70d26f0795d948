import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Bytes printed with backslash escapes, as Python prints `bytes` (`b'\x1f\x8b\x08…'`; Rust, Go,
/// Ruby and nginx write the same escapes): a compressed or UTF-16 body shown this way was judged
/// clean. Each input is made by Python's own `repr`, with fresh canaries each run.
@Suite struct HexEscapedTests {
  let generator = CanaryGenerator()

  /// A JSON body holding a token and a password canary, as a client sends it.
  func body() -> (Data, [Canary]) {
    let token = Canary(value: generator.makeValue(.token), location: .custom("token"))
    let password = Canary(value: generator.makeValue(.password), location: .custom("password"))
    let object: [String: Any] = ["session": ["token": token.value, "password": password.value]]
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return (data, [token, password])
  }

  func scan(_ text: String, _ canaries: [Canary], chunkSize: Int = 1 << 20) -> ([LeakFinding], ScannedSource)
  {
    LeakScanner(canaries: canaries, options: ScanOptions(), chunkSize: chunkSize).scan(
      .bytes(Data(text.utf8), name: "app.log"))
  }

  func names(_ findings: [LeakFinding], _ canary: Canary) -> [String] {
    findings.filter { $0.canary.value == canary.value }.map(\.encoding)
  }

  /// Python expressions printing compressed bytes as `repr` does, and the chain each is named.
  static let payloads: [(expression: String, chain: String)] = [
    ("repr(gzip.compress(d)).encode()", "gzip → hex-escaped"),
    ("repr(zlib.compress(d)).encode()", "zlib → hex-escaped"),
    (
      "repr((lambda c: c.compress(d) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15))).encode()",
      "deflate → hex-escaped"
    ),
    ("repr(bz2.compress(d)).encode()", "bzip2 → hex-escaped"),
  ]

  @Test(arguments: payloads.indices)
  func aCompressedBodyPrintedAsPythonBytesIsOpened(index: Int) throws {
    let (expression, chain) = Self.payloads[index]
    let (data, canaries) = body()
    guard let shown = try DecodedRenderings.python(expression, data) else { return }
    for line in ["DEBUG upload body=\(shown)", "DEBUG upload body=\(shown) done"] {
      let (findings, source) = scan("starting\n" + line + "\ndone\n", canaries)
      #expect(source.status.failureReason == nil)
      for canary in canaries {
        #expect(names(findings, canary).count == 1, "\(line)")
        #expect(names(findings, canary).first?.hasSuffix(chain) == true, "\(names(findings, canary)) \(line)")
      }
      #expect(findings.allSatisfy { $0.line == 2 })
    }
  }

  /// A payload an nginx log shows without quotes (`body=$request_body`, upper-case `\x1F`) starts
  /// after the key: gzip at its first escape, zlib at the `x` before it.
  @Test(arguments: [0, 1])
  func aPayloadAfterAKeyIsOpenedFromThere(index: Int) throws {
    let (expression, chain) = Self.payloads[index]
    let (data, canaries) = body()
    let nginx =
      "(lambda r: r[2:-1].replace(b'\\\\x1f', b'\\\\x1F').replace(b'\\\\x8b', b'\\\\x8B'))(\(expression))"
    guard let shown = try DecodedRenderings.python(nginx, data) else { return }
    let (findings, _) = scan("10.0.0.1 POST /upload 200 body=\(shown) rt=0.004\n", canaries)
    #expect(names(findings, canaries[0]) == [chain], "\(shown)")
  }

  /// Two payloads on one line are two runs, each closed by its quote: the second is opened too.
  @Test func twoPayloadsOnOneLineAreBothOpened() throws {
    let (data, canaries) = body()
    let token = try JSONSerialization.data(withJSONObject: ["token": canaries[0].value])
    let line =
      "(lambda a, b: b'request=' + repr(gzip.compress(a)).encode() + b' response='"
      + " + repr(zlib.compress(b)).encode() + b' in 12 ms')(*d.split(b'\\n'))"
    guard let shown = try DecodedRenderings.python(line, token + Data("\n".utf8) + data) else { return }
    let (findings, _) = scan("\(shown)\n", canaries)
    #expect(
      names(findings, canaries[0]).sorted() == ["gzip → hex-escaped", "zlib → hex-escaped"], "\(shown)")
    #expect(names(findings, canaries[1]) == ["json-escaped → zlib → hex-escaped"], "\(shown)")
  }

  /// Python's `repr` of a JSON body holding one non-ASCII character, after the password: the run
  /// is the whole bytes literal (`b'…'`, whose `"` are the JSON's own), so the password's `\/`,
  /// which `repr` writes `\\/`, is read as JSON-escaped, in whichever buffers the line falls.
  @Test func aBytesLiteralIsReadWholeAcrossBuffers() throws {
    let password = Canary(value: generator.makeValue(.password), location: .custom("password"))
    let object = ["password": password.value, "user": "José"]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    guard let shown = try DecodedRenderings.python("repr(d).encode()", data) else { return }
    let (whole, _) = scan("DEBUG body=" + shown + "\n", [password])
    #expect(whole.map(\.encoding) == ["json-escaped → hex-escaped"], "\(shown)")
    for (findings, fill) in Self.scansAcrossTheFirstBuffersEnd("DEBUG body=" + shown + " sent", [password]) {
      // Where the buffer ends inside the literal's last escapes, the main pass has reported the
      // value's raw head as a fragment before the next buffer's pass reads the run: both stand.
      let names = findings.map(\.encoding)
      #expect(names.contains("json-escaped → hex-escaped"), "line at \(fill): \(names)")
      #expect(Set(names).isSubset(of: ["json-escaped → hex-escaped", "fragment"]), "line at \(fill)")
    }
  }

  /// A body in UTF-16, printed as bytes: every other byte a `\x00`.
  @Test func aUTF16BodyPrintedAsPythonBytesIsRead() throws {
    let (data, canaries) = body()
    guard let shown = try DecodedRenderings.python("repr(d.decode().encode('utf-16-le')).encode()", data)
    else { return }
    let (findings, _) = scan("body: \(shown)\n", canaries)
    #expect(names(findings, canaries[0]) == ["utf16le → hex-escaped"], "\(shown)")
  }

  /// Escapes around a value that none touch: the value stands in the text as it is, and is found
  /// there once, as `raw` (an nginx log's `\x22` for each quote of a JSON body). One escaped
  /// inside it (a JSON-escaped `\/` written `\x5C/`) is found through the escapes.
  @Test func escapesAroundAValueLeaveItsOwnName() throws {
    let (data, canaries) = body()
    let nginx = "d.replace(b'\\\\', b'\\\\x5C').replace(b'\"', b'\\\\x22')"
    guard let shown = try DecodedRenderings.python(nginx, data) else { return }
    let (findings, _) = scan("127.0.0.1 - - \"PATCH /session\" 200 \"\(shown)\"\n", canaries)
    #expect(names(findings, canaries[0]) == ["raw"], "\(shown)")
    #expect(names(findings, canaries[1]) == ["json-escaped → hex-escaped"], "\(shown)")
  }

  /// Controls: the same renderings of random bytes sharing the canaries' prefix find nothing, and
  /// text full of other backslashes (JSON's `\"`, a Windows path, `\\x41`) is read as it is.
  /// The twin: one real payload among them is found.
  @Test func lookAlikesAreClean() throws {
    let (data, canaries) = body()
    var text = "path=C:\\xampp\\htdocs \"quoted \\\"x\\\" here\" escaped \\\\x41\\\\x42\n"
    for _ in 0..<4 {
      var random = Data("cnry".utf8)
      random.append(contentsOf: (0..<80).map { _ in UInt8.random(in: 0...255) })
      for (expression, _) in Self.payloads + [("repr(d).encode()", "")] {
        guard let shown = try DecodedRenderings.python(expression, random) else { return }
        text += "body=\(shown)\n"
      }
    }
    let (findings, source) = scan(text, canaries)
    #expect(findings.isEmpty, "\(findings.map { ($0.encoding, $0.excerpt) })")
    #expect(source.status.failureReason == nil)
    guard let planted = try DecodedRenderings.python(Self.payloads[0].expression, data) else { return }
    let (found, _) = scan(text + "body=\(planted)\n", canaries)
    #expect(names(found, canaries[0]) == ["gzip → hex-escaped"])
  }

  /// A payload across the scanner's buffers, cut at every place around it, is found once.
  @Test func aPayloadAcrossEveryBufferBoundaryIsFoundOnce() throws {
    let (data, canaries) = body()
    guard let shown = try DecodedRenderings.python(Self.payloads[1].expression, data) else { return }
    for (findings, fill) in Self.scansAcrossTheFirstBuffersEnd("upload body=\(shown) sent", [canaries[0]]) {
      #expect(findings.map(\.encoding) == ["zlib → hex-escaped"], "line at \(fill)")
    }
  }

  /// Scans of `line` after filler of every length (in steps of 7) that puts the end of a
  /// scanner's first buffer (1,024 bytes and the overlap) anywhere in it, with their filler's length.
  static func scansAcrossTheFirstBuffersEnd(_ line: String, _ canaries: [Canary]) -> [([LeakFinding], Int)] {
    let scanner = LeakScanner(canaries: canaries, options: ScanOptions(), chunkSize: 1024)
    return stride(from: 1200, through: 3600, by: 7).map { fill in
      let text = String(repeating: "z", count: fill) + "\n" + line + "\nlast\n"
      return (scanner.scan(.bytes(Data(text.utf8), name: "app.log")).0, fill)
    }
  }

  /// A run longer than ``DecodingLimits/maxRunBytes`` is not decoded, and the source is
  /// inconclusive; under the limit the same payload is found.
  @Test func aLongEscapedPayloadIsInconclusive() throws {
    let (data, canaries) = body()
    let random = (0..<1500).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
    guard let shown = try DecodedRenderings.python(Self.payloads[0].expression, Data(random.utf8) + data)
    else { return }
    var options = ScanOptions()
    options.decodingLimits.maxRunBytes = 256
    let text = String(repeating: "z", count: 3000) + "\nbody=" + shown + "\n"
    let limited = LeakScanner(canaries: canaries, options: options, chunkSize: 1024)
    let (_, source) = limited.scan(.bytes(Data(text.utf8), name: "app.log"))
    #expect(source.status.failureReason?.contains("DecodingLimits.maxRunBytes") == true, "\(source.status)")
    let (found, clean) = scan(text, canaries)
    #expect(names(found, canaries[0]) == ["gzip → hex-escaped"])
    #expect(clean.status.failureReason == nil)
  }
}

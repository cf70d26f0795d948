import Foundation
import Testing

@testable import CanaryTrapServer

/// Feeds `text` (or bytes) to a fresh parser and collects every event.
func parse(
  _ input: [UInt8], maxHeaderBytes: Int = 1024, maxBodyBytes: Int = 1024, finish: Bool = false
) -> (requests: [ParsedRequest], failures: [HTTPParseFailure], continues: Int) {
  var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes))
  parser.append(input)
  var requests: [ParsedRequest] = []
  var failures: [HTTPParseFailure] = []
  var continues = 0
  while let event = parser.next() {
    switch event {
    case .request(let request): requests.append(request)
    case .failure(let failure): failures.append(failure)
    case .continueExpected: continues += 1
    }
  }
  if finish, let failure = parser.finish() { failures.append(failure) }
  return (requests, failures, continues)
}

func parse(_ text: String, maxHeaderBytes: Int = 1024, maxBodyBytes: Int = 1024, finish: Bool = false)
  -> (requests: [ParsedRequest], failures: [HTTPParseFailure], continues: Int)
{
  parse(Array(text.utf8), maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes, finish: finish)
}

@Suite("HTTP request parser: well-formed input")
struct HTTPRequestParserTests {
  @Test func parsesRequestLineHeadersInOrderWithDuplicates() throws {
    let result = parse("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nSet: 1\r\nx-dup: one\r\nX-Dup: two\r\n\r\n")
    let request = try #require(result.requests.first)
    #expect(request.head.method == "GET")
    #expect(request.head.target == "/a?b=1")
    #expect(request.head.version == "HTTP/1.1")
    #expect(request.head.headers.map(\.name) == ["Host", "Set", "x-dup", "X-Dup"])
    #expect(request.head.headers.values(for: "X-DUP") == ["one", "two"])
    #expect(request.head.headers["x-dup"] == "one")
    #expect(result.failures.isEmpty)
  }

  @Test func contentLengthBodyAndRawBytes() throws {
    let text = "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
    let request = try #require(parse(text).requests.first)
    #expect(request.body == Data("hello".utf8))
    #expect(Array(request.raw) == Array(text.utf8))
  }

  @Test func bodyArrivingByteByByteCompletesOnce() {
    var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 1024, maxBodyBytes: 1024))
    var completed: [ParsedRequest] = []
    for byte in "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8 {
      parser.append([byte])
      while let event = parser.next() { if case .request(let request) = event { completed.append(request) } }
    }
    #expect(completed.count == 1)
    #expect(completed.first?.body == Data("abc".utf8))
  }

  /// A sized body goes straight to its own storage whatever the split: raw is every byte
  /// received, the body its tail, a pipelined request after it is untouched, and the parser holds
  /// nothing once both are complete.
  @Test(arguments: [1, 5, 64, 100_000])
  func aSizedBodyIsHeldOnceWhateverTheSplit(piece: Int) {
    let body = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let first = Array("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n".utf8) + body
    let second = Array("GET /next HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    let input = first + second
    var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 1024, maxBodyBytes: 8192))
    var completed: [ParsedRequest] = []
    var offset = 0
    while offset < input.count {
      parser.append(input[offset..<min(offset + piece, input.count)])
      offset += piece
      #expect(parser.heldBytes <= input.count)
      while let event = parser.next() { if case .request(let request) = event { completed.append(request) } }
    }
    #expect(completed.count == 2)
    #expect(completed.first.map { Array($0.raw) } == first)
    #expect(completed.first?.body == Data(body))
    #expect(completed.first?.body.startIndex == 0)
    #expect(completed.last.map { Array($0.raw) } == second)
    #expect(parser.heldBytes == 0)
  }

  @Test func aSizedBodyCutShortKeepsItsHeadAndPartInTheFailure() {
    var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 1024, maxBodyBytes: 8192))
    let head = "POST /cut HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
    parser.append(Array((head + "partial").utf8))
    #expect(parser.next() == nil)
    let failure = parser.finish()
    #expect(failure?.raw == Array((head + "partial").utf8))
    #expect(failure?.reason.contains("93 of the announced bytes missing") == true)
    #expect(parser.heldBytes == 0)
  }

  @Test func chunkedBodyWithExtensionsAndTrailers() throws {
    let text =
      "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Digest: abc\r\nX-Other: 2\r\n\r\n"
    let request = try #require(parse(text).requests.first)
    #expect(request.body == Data("Wikipedia".utf8))
    #expect(request.trailers["x-digest"] == "abc")
    #expect(request.trailers.count == 2)
    #expect(Array(request.raw) == Array(text.utf8))
  }

  @Test func pipelinedRequestsComeOutInOrder() {
    let text =
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: x\r\n\r\n"
    let result = parse(text)
    #expect(result.requests.map(\.head.target) == ["/1", "/2", "/3"])
    #expect(result.requests[1].body == Data("hi".utf8))
    #expect(String(decoding: result.requests[2].raw, as: UTF8.self) == "GET /3 HTTP/1.1\r\nHost: x\r\n\r\n")
  }

  @Test func bareLFIsAcceptedLeniently() throws {
    let request = try #require(
      parse("POST /lf HTTP/1.1\nHost: x\nA: 1\nContent-Length: 2\n\nok").requests.first)
    #expect(request.head.headers["A"] == "1")
    #expect(request.body == Data("ok".utf8))
  }

  @Test func expectContinueIsSignalledBeforeTheBody() {
    let result = parse("PUT /u HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
    #expect(result.continues == 1)
    #expect(result.requests.isEmpty)
    let withBody = parse(
      "PUT /u HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nbody")
    #expect(withBody.continues == 0)
    #expect(withBody.requests.first?.body == Data("body".utf8))
  }

  @Test func absoluteFormAndHTTP10() throws {
    let request = try #require(parse("GET http://example.test:8080/x/y?z=1 HTTP/1.0\r\n\r\n").requests.first)
    #expect(request.head.version == "HTTP/1.0")
    #expect(request.head.wantsKeepAlive == false)
    let target = RequestTarget(request.head.target)
    #expect(target.path == "/x/y")
    #expect(target.query == "z=1")
    #expect(RequestTarget("http://h").path == "/")
    #expect(RequestTarget("*").path == "*")
  }

  @Test func originFormTargetsSplitAtTheFirstQuestionMarkBeforeAnyFragment() {
    let cases: [(target: String, path: String, query: String?)] = [
      ("/", "/", nil), ("/a/b", "/a/b", nil), ("/a?b=1", "/a", "b=1"), ("/a?b?c", "/a", "b?c"),
      ("/a?", "/a", ""), ("/a#f?x", "/a", nil), ("/a?q#f", "/a", "q"), ("/#", "/", nil),
      ("/%C3%A9?x=%20", "/%C3%A9", "x=%20"),
      // Not ASCII: a '#' or '?' followed by a combining mark is not that Character.
      ("/é?x", "/é", "x"), ("/a#\u{301}?x", "/a#\u{301}", "x"), ("/a?\u{301}b", "/a?\u{301}b", nil),
    ]
    for (target, path, query) in cases {
      let parts = RequestTarget(target)
      #expect(parts.path == path, "\(target)")
      #expect(parts.query == query, "\(target)")
    }
  }

  @Test func nonUTF8HeaderBytesSurviveInRawAndDecodeLossily() throws {
    let bytes = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Bin: a".utf8) + [0xFF, 0xFE] + Array("b\r\n\r\n".utf8)
    let request = try #require(parse(bytes).requests.first)
    #expect(Array(request.raw) == bytes)
    #expect(request.head.headers["X-Bin"] == "a\u{FFFD}\u{FFFD}b")
  }

  @Test func leadingEmptyLinesAreSkipped() {
    #expect(parse("\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n").requests.map(\.head.target) == ["/after"])
  }
}

@Suite("HTTP request parser: bad input")
struct HTTPRequestParserBadInputTests {
  @Test(arguments: [
    "GARBAGE\r\n\r\n", "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
    "GET / FTP/1.1\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n",
  ])
  func malformedRequestLineIs400(_ text: String) throws {
    let failure = try #require(parse(text).failures.first)
    #expect(failure.status == 400)
    #expect(failure.reason == "malformed request line")
  }

  @Test func unsupportedVersionIs505() throws {
    #expect(try #require(parse("GET / HTTP/2.0\r\n\r\n").failures.first).status == 505)
  }

  @Test func headerLineWithoutColonIs400() throws {
    let failure = try #require(parse("GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n").failures.first)
    #expect(failure.status == 400)
    #expect(failure.reason == "header line without colon")
    #expect(failure.raw == Array("GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n".utf8))
  }

  @Test(arguments: [
    "GET / HTTP/1.1\r\nHost: x\r\nA : b\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n: b\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\n folded\r\n\r\n",
  ])
  func otherBadHeaderLinesAre400(_ text: String) throws {
    #expect(try #require(parse(text).failures.first).status == 400)
  }

  @Test func oversizedHeadIs431EvenBeforeItEnds() throws {
    let long = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 2000)
    let failure = try #require(parse(long, maxHeaderBytes: 1024).failures.first)
    #expect(failure.status == 431)
    #expect(parse(long + "\r\n\r\n", maxHeaderBytes: 1024).failures.first?.status == 431)
    #expect(parse(long + "\r\n\r\n", maxHeaderBytes: 4096).requests.count == 1)
  }

  @Test func oversizedBodyIs413ForContentLengthAndChunked() throws {
    let fixed = parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2048\r\n\r\n", maxBodyBytes: 1024)
    #expect(fixed.failures.first?.status == 413)
    let chunked = parse(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n801\r\n", maxBodyBytes: 1024)
    #expect(chunked.failures.first?.status == 413)
  }

  @Test(arguments: ["zz\r\n", "\r\n", "-1\r\n", "1234567890abcdef0\r\n"])
  func invalidChunkSizeIs400(_ sizeLine: String) throws {
    let result = parse("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + sizeLine)
    let failure = try #require(result.failures.first)
    #expect(failure.status == 400)
    #expect(failure.reason == "invalid chunk size")
  }

  @Test func overlongChunkSizeLineIs400WithOrWithoutItsLF() {
    let line = "5;ext=" + String(repeating: "x", count: 1100)
    let head = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    #expect(parse(head + line).failures.first?.reason == "chunk size line too long")
    #expect(
      parse(head + line + "\r\nhello\r\n0\r\n\r\n").failures.first?.reason == "chunk size line too long")
    #expect(parse(head + "5;ext=short\r\nhello\r\n0\r\n\r\n").requests.first?.body == Data("hello".utf8))
  }

  @Test func missingCRLFAfterChunkDataIs400() {
    let result = parse("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXX")
    #expect(result.failures.first?.reason == "missing CRLF after chunk data")
  }

  @Test(arguments: ["abc", "1, 2", "3, 3", "3,", "-5", "99999999999999999999"])
  func invalidContentLengthIs400(_ value: String) {
    #expect(
      parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n").failures.first?.status == 400)
  }

  @Test func theOnePassOverNamesFindsHostAndRepeatedFramingFields() {
    var headers = HTTPHeaders()
    for (name, value) in [("host", "a"), ("Content-Length", "1"), ("HOST", "b"), ("content-length", "1")] {
      headers.add(name, value)
    }
    let fields = FramingFields(headers)
    #expect(fields.isSuperset(of: [.host, .repeatedHost, .contentLength, .repeatedContentLength]))
    #expect(fields.problem(version: "HTTP/1.1") == "more than one Host field")
    #expect(FramingFields(HTTPHeaders()).problem(version: "HTTP/1.0") == nil)
    #expect(FramingFields(HTTPHeaders()).problem(version: "HTTP/1.1") == "an HTTP/1.1 request without Host")
  }

  @Test func unsupportedTransferEncodingIs400() {
    #expect(
      parse("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n").failures.first?.status == 400)
  }

  @Test func endOfInputMidBodyIsReportedWithoutStatus() throws {
    let result = parse("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc", finish: true)
    let failure = try #require(result.failures.first)
    #expect(failure.outcome == .closeWithoutAnswer)
    #expect(failure.reason.contains("mid-body"))
    #expect(failure.head?.target == "/p")
  }

  @Test func endOfInputMidHeadIsReported() {
    let result = parse("GET /half HTTP/1.1\r\nHost: x\r\n", finish: true)
    #expect(result.failures.first?.reason == "connection closed before the request head was complete")
  }

  @Test func endOfInputBetweenRequestsIsClean() {
    let result = parse("GET / HTTP/1.1\r\nHost: x\r\n\r\n", finish: true)
    #expect(result.failures.isEmpty)
    #expect(result.requests.count == 1)
  }

  @Test func parserStopsAfterAFailure() {
    let result = parse("BAD\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(result.failures.count == 1)
    #expect(result.requests.isEmpty)
  }

  @Test func idleTimeoutOnlyFailsAPartialRequest() {
    var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 1024, maxBodyBytes: 1024))
    #expect(parser.timeOut() == nil)
    parser.append(Array("GET / HT".utf8))
    #expect(parser.next() == nil)
    #expect(parser.timeOut()?.status == 408)
  }
}

extension HTTPParserEvent: Equatable {
  public static func == (left: HTTPParserEvent, right: HTTPParserEvent) -> Bool {
    switch (left, right) {
    case (.continueExpected, .continueExpected): true
    case (.failure(let a), .failure(let b)): a == b
    case (.request(let a), .request(let b)): a.raw == b.raw
    default: false
    }
  }
}

import Foundation
import Testing

@testable import CanaryTrapServer

@Suite("Multipart body parser")
struct MultipartBodyTests {
  @Test func fieldsAndFilesWithCRLF() throws {
    let body =
      "preamble to ignore\r\n--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\ncnry@example.test\r\n"
      + "--XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a b.txt\"\r\nContent-Type: text/plain\r\n\r\n"
      + "line1\r\nline2\r\n--XyZ--\r\nepilogue"
    let multipart = try #require(
      MultipartBody(contentType: "multipart/form-data; boundary=XyZ", body: Data(body.utf8)))
    #expect(multipart.parts.count == 2)
    #expect(multipart.field("email") == "cnry@example.test")
    let file = try #require(multipart.files.first)
    #expect(file.name == "doc")
    #expect(file.filename == "a b.txt")
    #expect(file.text == "line1\r\nline2")
    #expect(multipart.field("doc") == nil)
  }

  @Test func extendedFilenameWinsAndIsDecoded() throws {
    let body =
      "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"fallback.txt\"; filename*=UTF-8''cnry%E2%82%AC.txt\r\n\r\nx\r\n--b--"
    let multipart = try #require(
      MultipartBody(contentType: "multipart/form-data; boundary=b", body: Data(body.utf8)))
    #expect(multipart.part(named: "f")?.filename == "cnry€.txt")
    #expect(HeaderParameters.decodeExtendedValue("iso-8859-1'en'caf%E9") == "café")
  }

  @Test func quotedBoundaryWithOddCharactersAndLFOnly() throws {
    let boundary = "odd'()+_,-./:=? boundary"
    let body =
      "--\(boundary)\nContent-Disposition: form-data; name=\"a\"\n\nvalue-a\n--\(boundary)  \nContent-Disposition: form-data; name=\"b\"\n\nvalue-b\n--\(boundary)--\n"
    let multipart = try #require(
      MultipartBody(
        contentType: "multipart/form-data; charset=utf-8; boundary=\"\(boundary)\"", body: Data(body.utf8)))
    #expect(multipart.boundary == boundary)
    #expect(multipart.field("a") == "value-a")
    #expect(multipart.field("b") == "value-b")
  }

  @Test func quotedNamesWithEscapesAndSemicolons() throws {
    let body = "--b\r\nContent-Disposition: form-data; name=\"we\\\"ird;name\"\r\n\r\nv\r\n--b--"
    let multipart = try #require(
      MultipartBody(contentType: "multipart/form-data; boundary=b", body: Data(body.utf8)))
    #expect(multipart.parts.first?.name == "we\"ird;name")
  }

  @Test func missingFinalDelimiterKeepsTheLastPart() throws {
    let body = "--b\r\nContent-Disposition: form-data; name=\"last\"\r\n\r\ntruncated\r\n"
    let multipart = try #require(
      MultipartBody(contentType: "multipart/form-data; boundary=b", body: Data(body.utf8)))
    #expect(multipart.field("last") == "truncated")
  }

  @Test func binaryContentIsKeptExactly() throws {
    let payload: [UInt8] = [0, 13, 10, 45, 45, 99, 255, 13]  // "\r\n--c" is a near miss of the delimiter
    var body = Data("--b\r\nContent-Disposition: form-data; name=\"bin\"; filename=\"x\"\r\n\r\n".utf8)
    body.append(contentsOf: payload)
    body.append(Data("\r\n--b--\r\n".utf8))
    let multipart = try #require(MultipartBody(contentType: "multipart/form-data; boundary=b", body: body))
    #expect(Array(multipart.parts.first?.body ?? Data()) == payload)
  }

  @Test func nonMultipartOrBoundarylessTypesGiveNil() {
    #expect(MultipartBody(contentType: "application/json", body: Data()) == nil)
    #expect(MultipartBody(contentType: "multipart/form-data", body: Data()) == nil)
    #expect(MultipartBody(boundary: "b", body: Data("no delimiter here".utf8)).parts.isEmpty)
  }

  @Test func aLongerBoundaryIsContentNotADelimiter() throws {
    let body =
      "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--bX\r\ny\r\n--b \t\r\n\r\nz\r\n--b--tail\r\n"
    let multipart = MultipartBody(boundary: "b", body: Data(body.utf8))
    #expect(multipart.parts.map(\.text) == ["x\r\n--bX\r\ny", "z"])
    #expect(multipart.parts.last?.headers.count == 0)
    #expect(multipart.isComplete)
  }

  @Test func emptyPartsAndAMissingCloseDelimiter() throws {
    let body = "--b\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b"
    let multipart = MultipartBody(boundary: "b", body: Data(body.utf8))
    #expect(multipart.parts.count == 2)
    #expect(multipart.parts.first?.body.isEmpty == true)
    #expect(multipart.field("a") == "v")
    #expect(!multipart.isComplete)
    #expect(!MultipartBody(boundary: "b", body: Data("--b\r\n\r\nv\r\n".utf8)).isComplete)
  }

  @Test func foldedHeaderLinesAreJoined() throws {
    let body =
      "--b\nContent-Disposition: form-data; name=\"f\";\n\tfilename=\"folded.txt\"\nX-Empty:\n more\n\nv\n--b--\n"
    let part = try #require(MultipartBody(boundary: "b", body: Data(body.utf8)).parts.first)
    #expect(part.name == "f")
    #expect(part.filename == "folded.txt")
    #expect(part.headers["X-Empty"] == "more")
  }

  @Test func partsPastTheLimitAreCountedNotKept() {
    var body = ""
    for index in 0..<7 {
      body += "--b\r\nContent-Disposition: form-data; name=\"p\(index)\"\r\n\r\n\(index)\r\n"
    }
    body += "--b--\r\n"
    let multipart = MultipartBody(boundary: "b", body: Data(body.utf8), limits: .init(maxParts: 5))
    #expect(multipart.parts.map(\.text) == ["0", "1", "2", "3", "4"])
    #expect(multipart.droppedParts == 2)
    #expect(multipart.isComplete)
    let whole = MultipartBody(boundary: "b", body: Data(body.utf8))
    #expect(whole.parts.count == 7 && whole.droppedParts == 0)
  }

  @Test func headerFieldsPastTheLimitAreCountedNotKept() throws {
    var body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n"
    for index in 0..<5 { body += "X-\(index): \(index)\r\n folded\r\n" }
    body += "\r\nv\r\n--b\r\nX-Only: 1\r\n\r\nw\r\n--b--"
    let multipart = MultipartBody(boundary: "b", body: Data(body.utf8), limits: .init(maxHeaderFields: 3))
    let first = try #require(multipart.parts.first)
    #expect(first.headers.map(\.name) == ["Content-Disposition", "X-0", "X-1"])
    #expect(first.headers["X-1"] == "1 folded")
    #expect(first.text == "v")
    #expect(multipart.parts.last?.headers["X-Only"] == "1")
    #expect(multipart.droppedHeaderFields == 3)
  }

  @Test func aHostileBodyOfTinyPartsStaysBounded() {
    let body = Data(String(repeating: "--b\n\n\n", count: 50_000).utf8)
    let multipart = MultipartBody(boundary: "b", body: body)
    #expect(multipart.parts.count == MultipartBody.Limits().maxParts)
    #expect(multipart.droppedParts == 50_000 - MultipartBody.Limits().maxParts)
  }
}

@Suite("Server helpers")
struct ServerHelperTests {
  @Test func headersKeepOrderAndCompareNamesCaseInsensitively() {
    var headers: HTTPHeaders = ["Set-Cookie": "a=1", "X-One": "1", "set-cookie": "b=2"]
    #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
    headers["set-cookie"] = "c=3"
    #expect(headers.values(for: "Set-Cookie") == ["c=3"])
    #expect(headers.map(\.name) == ["Set-Cookie", "X-One"])
    headers.add("X-One", "2")
    headers["x-one"] = nil
    #expect(headers.count == 1)
    #expect(HTTPHeaders([("A", "keep-alive, Upgrade")]).hasToken("upgrade", in: "a"))
  }

  @Test func recordedRequestViews() {
    let request = RecordedRequest(
      method: "GET", target: "/p%20q?a=1&b=x%2By+z&flag#frag",
      headers: ["Cookie": "sid=cnry1; theme=dark", "cookie": "x=y"])
    #expect(request.path == "/p%20q")
    #expect(request.query == "a=1&b=x%2By+z&flag")
    #expect(request.queryItems.map(\.value) == ["1", "x+y+z", ""])
    #expect(request.cookies.map(\.name) == ["sid", "theme", "x"])
    #expect(request.multipart == nil)
  }

  @Test func responseSerializerAddsFramingAndConnectionHeaders() {
    let response = ServerResponse.text("hi").header("Set-Cookie", "a=1").header("Set-Cookie", "b=2")
    let output = ResponseSerializer.serialize(response, method: "GET", version: "HTTP/1.1", keepAlive: false)
    let text = String(decoding: output.bytes, as: UTF8.self)
    #expect(
      text
        == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"
    )
    #expect(output.closeAfter)
    let chunked = ServerResponse(status: 200, body: .chunked([Data("ab".utf8)]))
    let chunkedText = String(
      decoding: ResponseSerializer.serialize(chunked, method: "GET", version: "HTTP/1.1", keepAlive: true)
        .bytes,
      as: UTF8.self)
    #expect(chunkedText == "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n")
    let old = String(
      decoding: ResponseSerializer.serialize(chunked, method: "GET", version: "HTTP/1.0", keepAlive: true)
        .bytes,
      as: UTF8.self)
    #expect(old == "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nab")
  }

  @Test func jsonObjectResponseSortsKeysAndKeepsSlashes() {
    let response = ServerResponse.json(object: ["b": "x/y", "a": "1"])
    #expect(String(decoding: response.body.data, as: UTF8.self) == #"{"a":"1","b":"x/y"}"#)
    #expect(ServerResponse.redirect(308, to: "/n?sig=1").headers["Location"] == "/n?sig=1")
  }
}

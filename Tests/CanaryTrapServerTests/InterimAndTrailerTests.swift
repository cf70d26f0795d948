import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

@Suite("Informational responses and trailers over raw sockets")
struct InterimAndTrailerTests {
  private static var hinted: ServerResponse {
    ServerResponse(
      headers: ["Content-Type": "text/plain", "Trailer": "X-Checksum"],
      body: .chunked([Data("ab".utf8), Data("cde".utf8)])
    )
    .preceded(by: .earlyHints(links: ["</style.css>; rel=preload; as=style", "</app.js>; rel=preload"]))
    .preceded(by: InformationalResponse(status: 102, reason: "Processing"))
    .trailer("X-Checksum", "sha256=abc")
    .trailer("X-Count", "2")
  }

  @Test("103 and 102 go before the final head, trailers after the last chunk: the exact bytes")
  func exactBytes() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/hinted", respond: Self.hinted)
    let client = try RawClient(port: server.port)
    client.send("GET /hinted HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let reply = client.readToEnd()
    #expect(
      reply.text
        == "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\nLink: </app.js>; rel=preload\r\n\r\n"
        + "HTTP/1.1 102 Processing\r\n\r\n"
        + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTrailer: X-Checksum\r\nTransfer-Encoding: chunked\r\n"
        + "Connection: close\r\n\r\n"
        + "2\r\nab\r\n3\r\ncde\r\n0\r\nX-Checksum: sha256=abc\r\nX-Count: 2\r\n\r\n")
    #expect(reply.closed)
    waitUntilResponsesWritten(server)
    #expect(server.responses.first?.status == 200)
    #expect(server.responses.first?.contains("X-Checksum: sha256=abc") == true)
    #expect(server.responses.first?.fullyWritten == true)
  }

  @Test("a keep-alive connection serves the next request after the trailers")
  func keepAliveAfterTrailers() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/hinted", respond: Self.hinted)
    server.on(.get, "/next", respond: .text("next"))
    let client = try RawClient(port: server.port)
    client.send(
      "GET /hinted HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let text = client.readToEnd().text
    #expect(text.hasPrefix("HTTP/1.1 103 Early Hints\r\n"))
    #expect(text.contains("0\r\nX-Checksum: sha256=abc\r\nX-Count: 2\r\n\r\nHTTP/1.1 200 OK\r\n"))
    #expect(text.hasSuffix("\r\n\r\nnext"))
  }

  @Test("an HTTP/1.0 client gets neither: no 1xx, the body joined with a length and no trailers")
  func oldClientGetsNeither() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/hinted", respond: Self.hinted)
    let client = try RawClient(port: server.port)
    client.send("GET /hinted HTTP/1.0\r\n\r\n")
    let text = client.readToEnd().text
    #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(text.contains("Content-Length: 5\r\n"))
    #expect(text.hasSuffix("\r\n\r\nabcde"))
    #expect(!text.contains("X-Checksum: sha256"))
  }

  @Test("a fixed body has no trailers; a paced body sends them with its last piece")
  func fixedAndPacedBodies() throws {
    let server = try makeServer()
    defer { server.stop() }
    server.on(.get, "/fixed", respond: ServerResponse.text("plain").trailer("X-Checksum", "never"))
    server.on(
      .get, "/paced",
      respond: ServerResponse(body: .chunked([Data("one".utf8), Data("two".utf8), Data("six".utf8)]))
        .trailer("X-Checksum", "paced").preceded(by: .earlyHints(links: ["</a>"]))
        .paced(every: .milliseconds(20)))
    let fixed = try RawClient(port: server.port)
    fixed.send("GET /fixed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let fixedText = fixed.readToEnd().text
    #expect(fixedText.hasSuffix("\r\n\r\nplain"))
    #expect(!fixedText.contains("never"))
    let paced = try RawClient(port: server.port)
    paced.send("GET /paced HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let pacedText = paced.readToEnd().text
    #expect(pacedText.hasPrefix("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\n"))
    #expect(pacedText.hasSuffix("3\r\none\r\n3\r\ntwo\r\n3\r\nsix\r\n0\r\nX-Checksum: paced\r\n\r\n"))
    #expect(
      PacedResponse.pieceLengths(
        of: ServerResponse(body: .chunked([Data("one".utf8), Data("two".utf8)])).trailer("X-A", "b")
          .paced(every: .milliseconds(1)),
        bytes: 100, method: "GET", version: "HTTP/1.1")?.last == 8 + 5 + "X-A: b\r\n".utf8.count)
  }
}

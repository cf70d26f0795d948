import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Uploads compressed by real tools and split into items, each finding named after its upload.
@Suite("Ingest sink: decoding and splitting")
struct IngestSinkDecodingTests {
  /// A Sentry envelope of a session and an event whose breadcrumb keeps the URL's query.
  static func envelope(query: String) -> Data {
    let event =
      #"{"breadcrumbs":[{"type":"http","data":{"url":"https://api.example.com/v1/me","http.query":"\#(query)"}}]}"#
    return Data(
      (#"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","dsn":"https://pub0123@o1.ingest.sentry.io/1"}"#
        + "\n"
        + #"{"type":"session"}"# + "\n" + #"{"status":"ok"}"# + "\n"
        + #"{"type":"event","length":\#(event.utf8.count)}"# + "\n" + event + "\n").utf8)
  }

  @Test("a gzip Sentry envelope is opened and split, and the finding names its item")
  func gzipEnvelope() async throws {
    let canary = IngestTestSupport.canary()
    guard let body = try IngestTestSupport.gzip(Self.envelope(query: "session=\(canary)")) else { return }
    let sink = try IngestTestSupport.startedSink()
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (contents, problem) = try await IngestTestSupport.read(sink) {
      try await IngestTestSupport.upload(
        body, to: "/api/1/envelope/", on: sink,
        headers: [
          "Content-Encoding": "gzip", "Content-Type": "application/x-sentry-envelope",
          "X-Sentry-Auth": "Sentry sentry_version=7, sentry_key=pub0123, sentry_client=sentry.cocoa/8.0.0",
        ], session: session)
    }
    #expect(problem == nil)
    #expect(
      contents.map(\.name) == [
        "ingest /api/1/envelope/ upload 1 head", "ingest /api/1/envelope/ upload 1 envelope header",
        "ingest /api/1/envelope/ upload 1 item 1 (session)",
        "ingest /api/1/envelope/ upload 1 item 2 (event)",
      ])
    #expect(
      IngestTestSupport.text(contents, "ingest /api/1/envelope/ upload 1 item 2 (event)")?.contains(canary)
        == true)
    #expect(
      IngestTestSupport.text(contents, "ingest /api/1/envelope/ upload 1 item 1 (session)")?.contains(canary)
        == false)
    #expect(
      IngestTestSupport.text(contents, "ingest /api/1/envelope/ upload 1 head")?.contains("X-Sentry-Auth")
        == true)
  }

  @Test("twin: the same envelope without the canary holds none of it")
  func gzipEnvelopeClean() async throws {
    let canary = IngestTestSupport.canary()
    guard let body = try IngestTestSupport.gzip(Self.envelope(query: "session=%5Bredacted%5D")) else {
      return
    }
    let sink = try IngestTestSupport.startedSink()
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (contents, problem) = try await IngestTestSupport.read(sink) {
      try await IngestTestSupport.upload(
        body, to: "/api/1/envelope/", on: sink, headers: ["Content-Encoding": "gzip"], session: session)
    }
    #expect(problem == nil)
    #expect(contents.count == 4)
    #expect(contents.allSatisfy { IngestTestSupport.text(contents, $0.name)?.contains(canary) == false })
  }

  @Test("Datadog's deflate (Python's zlib) JSON array and raw deflate NDJSON are split into items")
  func zlibArrayAndRawDeflateLines() async throws {
    let canary = IngestTestSupport.canary()
    let array = Data(
      #"[{"message":"GET /me 200"}, {"message":"GET /me?token=\#(canary) 500","tags":["a,b"]}]"#.utf8)
    let lines = Data("{\"log\":\"one\"}\n{\"log\":\"two \(canary)\"}\n".utf8)
    guard let zlib = try IngestTestSupport.zlib(array), let raw = try IngestTestSupport.rawDeflate(lines)
    else { return }
    #expect(IngestBodyDecoding.isZlibHeader(zlib))
    #expect(!IngestBodyDecoding.isZlibHeader(raw))
    let sink = try IngestTestSupport.startedSink(answers: [.accepted])
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (contents, problem) = try await IngestTestSupport.read(sink) {
      let response = try await IngestTestSupport.upload(
        zlib, to: "/api/v2/logs", on: sink,
        headers: [
          "Content-Encoding": "deflate", "Content-Type": "application/json", "DD-API-KEY": "pub0123",
        ],
        session: session)
      #expect(response.statusCode == 202)
      try await IngestTestSupport.upload(
        raw, to: "/api/v2/rum", on: sink,
        headers: ["Content-Encoding": "deflate", "Content-Type": "text/plain"],
        session: session)
    }
    #expect(problem == nil)
    #expect(
      IngestTestSupport.text(contents, "ingest /api/v2/logs upload 1 item 1") == #"{"message":"GET /me 200"}"#
    )
    #expect(IngestTestSupport.text(contents, "ingest /api/v2/logs upload 1 item 2")?.contains(canary) == true)
    #expect(IngestTestSupport.text(contents, "ingest /api/v2/rum upload 1 item 1") == #"{"log":"one"}"#)
    #expect(IngestTestSupport.text(contents, "ingest /api/v2/rum upload 1 item 2")?.contains(canary) == true)
  }

  @Test("an encoding the sink cannot open (br, zstd, Loki's snappy protobuf) makes the window incomplete")
  func unopenableEncodings() async throws {
    let sink = try IngestTestSupport.startedSink()
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (contents, problem) = try await IngestTestSupport.read(sink) {
      try await IngestTestSupport.upload(
        Data([0x1B, 0x00, 0x02]), to: "/v1/logs", on: sink, headers: ["Content-Encoding": "br"],
        session: session)
      try await IngestTestSupport.upload(
        Data([0x28, 0xB5, 0x2F, 0xFD]), to: "/v1/logs", on: sink, headers: ["Content-Encoding": "zstd"],
        session: session)
      try await IngestTestSupport.upload(
        Data([0xFF, 0x06]), to: "/loki/api/v1/push", on: sink,
        headers: ["Content-Type": "application/x-protobuf"],
        session: session)
    }
    let reason = try #require(problem)
    #expect(reason.contains("ingest /v1/logs upload 1: its Content-Encoding br cannot be opened"))
    #expect(reason.contains("ingest /v1/logs upload 2: its Content-Encoding zstd cannot be opened"))
    #expect(
      reason.contains("ingest /loki/api/v1/push upload 1: its body is Loki's snappy-compressed protobuf"))
    #expect(contents.contains { $0.name == "ingest /v1/logs upload 1 body" })
  }

  @Test("a corrupt gzip body is reported, not passed as clean")
  func corruptGzip() async throws {
    let sink = try IngestTestSupport.startedSink()
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (_, problem) = try await IngestTestSupport.read(sink) {
      try await IngestTestSupport.upload(
        Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 0x01]), to: "/x", on: sink,
        headers: ["Content-Encoding": "gzip"], session: session)
    }
    #expect(problem?.contains("ingest /x upload 1: its gzip body could not be decoded") == true)
  }

  @Test("a decompression bomb stops at the decoded-bytes limit")
  func bombStopsAtLimit() async throws {
    guard let bomb = try IngestTestSupport.gzip(Data(count: 4 << 20)) else { return }
    let sink = try IngestTestSupport.startedSink(limit: IngestSink.Limit(maxDecodedBytes: 1 << 20))
    defer { sink.stop() }
    let session = makeSession()
    defer { session.invalidateAndCancel() }
    let (_, problem) = try await IngestTestSupport.read(sink) {
      try await IngestTestSupport.upload(
        bomb, to: "/bomb", on: sink, headers: ["Content-Encoding": "gzip"], session: session)
    }
    #expect(problem?.contains("more than the 1048576 bytes left of the sink's maxDecodedBytes") == true)
  }

  @Test("splitting keeps every byte of an unterminated array and of lines past the item cap")
  func splittingLimits() throws {
    #expect(IngestItems.split(Data("[1,2".utf8), contentType: nil, path: "/") == nil)
    let many = Data((0...IngestItems.maxItems + 5).map { "{\"n\":\($0)}\n" }.joined().utf8)
    let items = try #require(IngestItems.split(many, contentType: "application/x-ndjson", path: "/"))
    #expect(items.count == IngestItems.maxItems + 1)
    #expect(items.last?.label == "item \(IngestItems.maxItems + 1) and after")
    #expect(
      String(decoding: items.last!.bytes, as: UTF8.self).hasSuffix("{\"n\":\(IngestItems.maxItems + 5)}\n"))
    let pretty = Data("{\n  \"a\": [\n    {\"b\": 1}\n  ]\n}\n".utf8)
    #expect(IngestItems.split(pretty, contentType: "application/json", path: "/") == nil)
  }
}

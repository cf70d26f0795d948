import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// The kinds whose responses stream or travel encoded (see <doc:StreamingExchanges>): not part of
  /// ``all``; pass them to ``CanaryTrap/runMatrix(through:kinds:fileID:filePath:line:column:)`` next to it.
  public static var streaming: [RequestKind] { [compressedResponse, serverSentEvents, expectContinue] }

  /// Two JSON responses compressed by the server, one `gzip` with a fixed length and one `deflate`
  /// sent in chunks: the canaries are in the decoded bodies only, so they are delivered when the
  /// transport decoded them for the app.
  package static let compressedResponse = RequestKind(
    name: "compressed-response",
    summary: "gzip and chunked deflate JSON bodies (delivered once the transport decodes them)"
  ) { p in
    let session = p.canary(.token, at: .responseBody(.json("gzip.session")))
    let refresh = p.canary(.jwt, at: .responseBody(.json("deflate.refresh")))
    // Some repetition, so the compressor emits matches as well as literals.
    let padding = Array(repeating: "compressible padding", count: 8)
    let gzipBody = try jsonData(["gzip": ["session": session, "padding": padding]])
    let deflateBody = try jsonData(["deflate": ["refresh": refresh, "padding": padding]])
    let thirds = stride(from: 0, to: deflateBody.count, by: max(1, deflateBody.count / 3)).map {
      deflateBody.subdata(in: $0..<min(deflateBody.count, $0 + max(1, deflateBody.count / 3)))
    }
    p.server.on(
      .get, p.path("gzip"),
      respond: try ServerResponse(headers: ["Content-Type": "application/json"], body: .fixed(gzipBody))
        .encoded(.gzip))
    p.server.on(
      .get, p.path("deflate"),
      respond: try ServerResponse(headers: ["Content-Type": "application/json"], body: .chunked(thirds))
        .encoded(.deflate))
    return [
      p.request("GET", p.url(p.path("gzip"))),
      p.request("GET", p.url(p.path("deflate"))),
    ]
  }

  /// A `text/event-stream` response of three events sent over time, with canaries in `id:`,
  /// `event:` and `data:` (text, and JSON over two lines), one of them cut across two chunks:
  /// each canary is delivered when the body the transport returned holds it in that field of that
  /// event, so an app that stopped reading after an event leaves the later ones undelivered.
  package static let serverSentEvents = RequestKind(
    name: "server-sent-events",
    summary: "text/event-stream over time: canaries in id:, event: and data: of three events"
  ) { p in
    let firstID = p.canary(.uuid, at: .responseBody(.event(1, .id)))
    let greeting = p.canary(.token, at: .responseBody(.event(1, .data)))
    let type = p.canary(.token, at: .responseBody(.event(2, .event)))
    let delta = p.canary(.jwt, at: .responseBody(.event(2, .data)))
    let done = p.canary(.email, at: .responseBody(.event(3, .data)))
    let first = ServerSentEvent(id: firstID, event: "greeting", data: "hello \(greeting)").text
    let second = ServerSentEvent(event: type, data: "{\"delta\":\n\"\(delta)\"}").text
    let third = ServerSentEvent(id: "3", data: "done \(done)").text
    // The second event is cut in the middle of its data canary, across two chunks.
    let middle =
      second.range(of: delta).map { second.index($0.lowerBound, offsetBy: delta.count / 2) }
      ?? second.endIndex
    p.server.on(
      .get, p.path("events"),
      respond: .eventStream(
        chunks: [": stream opened\n\n", first, String(second[..<middle]), String(second[middle...]), third]))
    return [p.request("GET", p.url(p.path("events")), headers: [("Accept", "text/event-stream")])]
  }

  /// A `PUT` of a JSON body sent with `Expect: 100-continue`, the way an upload asks before it
  /// sends: the body's canaries are delivered only when the client honoured the server's
  /// `100 Continue` and sent the body, proven from the server's record like any request body.
  package static let expectContinue = RequestKind(
    name: "expect-continue",
    summary: "PUT JSON with Expect: 100-continue (the body is delivered once the client honours the 100)"
  ) { p in
    let upload = p.canary(.token, at: .requestHeader("X-Upload-Token"))
    let body = try jsonData([
      "upload": [
        "token": p.canary(.token, at: .requestBody(.json("upload.token"))),
        "owner": p.canary(.email, at: .requestBody(.json("upload.owner"))),
      ]
    ])
    p.server.on(.put, p.path("uploads"), respond: .status(201))
    return [
      p.request(
        "PUT", p.url(p.path("uploads")),
        headers: [
          ("Content-Type", "application/json"), ("Expect", "100-continue"), ("X-Upload-Token", upload),
        ],
        body: body)
    ]
  }
}

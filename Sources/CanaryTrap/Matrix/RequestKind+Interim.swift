import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// The kinds whose canaries travel in parts of a response URLSession does not hand the app (see
  /// <doc:StreamingExchanges>): not part of ``all`` or ``streaming``. Through URLSession their
  /// canaries are undelivered, so a run is inconclusive, never clean; FoundationNetworking stops
  /// the process on a response with trailers, so run `responseTrailers` only through a transport
  /// that reads them.
  public static var interimAndTrailers: [RequestKind] { [earlyHints, responseTrailers] }

  /// A JSON response preceded by `103 Early Hints` whose `Link` field holds the canary: delivered
  /// when the transport returned that field to the app with the response's headers.
  package static let earlyHints = RequestKind(
    name: "early-hints", summary: "103 Early Hints with a canary in Link, before a JSON response"
  ) { p in
    let asset = p.canary(.token, at: .informationalHeader(status: 103, "Link"))
    p.server.on(
      .get, p.path("page"),
      respond: ServerResponse.json("{\"page\":\"ready\"}")
        .preceded(by: .earlyHints(links: ["</assets/app.css?v=\(asset)>; rel=preload; as=style"])))
    return [p.request("GET", p.url(p.path("page")))]
  }

  /// A chunked text response that ends with the trailer `X-Checksum` holding the canary:
  /// delivered when the transport returned that field to the app with the response's headers.
  package static let responseTrailers = RequestKind(
    name: "response-trailers", summary: "chunked body ending with a canary in the trailer X-Checksum"
  ) { p in
    let checksum = p.canary(.token, at: .responseTrailer("X-Checksum"))
    p.server.on(
      .get, p.path("report"),
      respond: ServerResponse(
        headers: ["Content-Type": "text/plain; charset=utf-8", "Trailer": "X-Checksum"],
        body: .chunked([Data("report line 1\n".utf8), Data("report line 2\n".utf8)])
      ).trailer("X-Checksum", checksum))
    return [p.request("GET", p.url(p.path("report")))]
  }
}

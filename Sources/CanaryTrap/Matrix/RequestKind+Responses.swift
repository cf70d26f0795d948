import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// A 401 whose `WWW-Authenticate` and JSON error body carry canaries.
  package static let unauthorized = RequestKind(
    name: "error-401", summary: "401 with a canary in WWW-Authenticate and in the error body"
  ) { p in
    let description = p.canary(.token, at: .responseHeader("WWW-Authenticate"))
    let requestID = p.canary(.uuid, at: .responseBody(.json("request_id")))
    let challenge = #"Bearer realm="canary", error="invalid_token", error_description="\#(description)""#
    let body = #"{"error":"unauthorized","request_id":"\#(requestID)"}"#
    p.server.on(
      .get, p.path("account"), respond: .json(body, status: 401).header("WWW-Authenticate", challenge))
    return [p.request("GET", p.url(p.path("account")))]
  }

  /// A 500 whose body echoes the request's data next to a canary of its own.
  package static let serverError = RequestKind(
    name: "error-500", summary: "500 whose body echoes the request data"
  ) { p in
    let card = p.canary(.number, at: .requestBody(.json("card")))
    let traceID = p.canary(.token, at: .responseBody(.json("trace_id")))
    p.server.on(.post, p.path("orders")) { request in
      let echoed = String(decoding: request.body, as: UTF8.self)
      return .json(#"{"error":"internal","trace_id":"\#(traceID)","echo":\#(echoed)}"#, status: 500)
    }
    return [
      p.request(
        "POST", p.url(p.path("orders")), headers: [("Content-Type", "application/json")],
        body: try jsonData(["card": card, "amount": 12]))
    ]
  }

  /// A response with a canary in a custom header and in a plain-text body.
  package static let responseHeader = RequestKind(
    name: "response-header", summary: "a response with a canary in a custom header and a text body"
  ) { p in
    let debug = p.canary(.token, at: .responseHeader("X-Debug-Token"))
    let code = p.canary(.number, at: .responseBody(.text))
    p.server.on(
      .get, p.path("status"), respond: .text("your recovery code is \(code)\n").header("X-Debug-Token", debug)
    )
    return [p.request("GET", p.url(p.path("status")))]
  }

  /// Every shape (token, email, UUID, long number, JWT) in the path, the query and JSON both ways.
  package static let shapes = RequestKind(
    name: "shapes", summary: "token, email, UUID, long number and JWT in path, query and JSON"
  ) { p in
    let shapes: [CanaryShape] = [.token, .email, .uuid, .number, .jwt]
    let inPath = shapes.enumerated().map { index, shape in
      p.canary(shape, at: .requestURL(.path(KindPlanter.firstDataSegment + index)))
    }
    // Query names of their own (`shape_email`): get-query already plants `query[email]`.
    let inQuery = shapes.map { shape in
      (q: "shape_\(shape.rawValue)", v: p.canary(shape, at: .requestURL(.query("shape_\(shape.rawValue)"))))
    }
    var requestJSON: [String: String] = [:]
    var responseJSON: [String: String] = [:]
    for shape in shapes {
      requestJSON[shape.rawValue] = p.canary(shape, at: .requestBody(.json("shapes.\(shape.rawValue)")))
      responseJSON[shape.rawValue] = p.canary(shape, at: .responseBody(.json("shapes.\(shape.rawValue)")))
    }
    let path = p.path(inPath)
    let reply = String(decoding: try jsonData(["shapes": responseJSON]), as: UTF8.self)
    p.server.on(.post, path, respond: .json(reply))
    return [
      p.request(
        "POST", p.url(path, query: inQuery.map { ($0.q, $0.v) }),
        headers: [("Content-Type", "application/json")],
        body: try jsonData(["shapes": requestJSON]))
    ]
  }

  /// A `;name=value` path parameter.
  package static let pathParameter = RequestKind(
    name: "path-parameter", summary: "a ;session=… path parameter"
  ) { p in
    let session = p.canary(.token, at: .requestURL(.pathParameter("session")))
    return [p.request("GET", p.url(p.route + "/items;session=\(session)/view"))]
  }

  /// A fragment, which never leaves the client: its delivery proof is that the transport was
  /// handed a URL carrying it (a logger of the URL the app built can still leak it).
  package static let fragment = RequestKind(
    name: "fragment", summary: "a #fragment (client-side only: proven handed to the transport)"
  ) { p in
    let anchor = p.canary(.token, at: .requestURL(.fragment))
    return [p.request("GET", p.url(p.path("page"), fragment: anchor))]
  }
}

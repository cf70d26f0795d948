import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RequestKind {
  /// One kind per ``ExchangeFailure``, each a `POST` whose exchange fails that way, in the order of
  /// `ExchangeFailure.allCases`.
  package static let failures: [RequestKind] = ExchangeFailure.allCases.map(failing)

  /// The `URLRequest.timeoutInterval` of the ``ExchangeFailure/timedOut`` kind: one second, the
  /// shortest FoundationNetworking honours reliably (it counts whole seconds).
  package static let failureTimeout: TimeInterval = 1

  /// How long the server holds its answer to a request that must time out or be cancelled: long
  /// enough that a transport that ignores the timeout or the cancellation is seen to return it,
  /// and that a cancellation delayed by a loaded machine (every cooperative thread busy) still
  /// comes first; shorter than the request deadline and than common request timeouts (10 s and
  /// up), so such a transport returns the answer and is named instead of timing out.
  static let heldAnswer: Duration = .seconds(8)

  /// A `POST` to `/<tracer>/failure-<name>/orders/<id>?token=…` whose exchange fails by `failure`,
  /// with canaries in the URL's user and password, a path segment, a query item, a header and
  /// the JSON body, and in the response the app is handed where the failure leaves one. Each
  /// location is named after the failure, such as `failure[cancelled].request.url.query[token]`.
  public static func failing(_ failure: ExchangeFailure) -> RequestKind {
    RequestKind(
      name: "failure-\(failure.rawValue)", summary: "an exchange where \(failure.summary)", failure: failure
    ) { p in
      func plant(_ shape: CanaryShape, _ location: CanaryLocation) -> String {
        p.canary(shape, at: .failedExchange(failure, location))
      }
      let user = plant(.email, .requestURL(.user))
      let password = plant(.password, .requestURL(.password))
      let order = plant(.uuid, .requestURL(.path(KindPlanter.firstDataSegment + 1)))
      let token = plant(.token, .requestURL(.query("token")))
      let apiKey = plant(.token, .requestHeader("X-Api-Key"))
      let secret = plant(.password, .requestBody(.json("card.cvc")))
      let path = p.path("orders", order)
      let base = failure == .connectionRefused ? try p.server.refusingBaseURL() : p.trap.baseURL
      var components = URLComponents(
        url: p.url(path, query: [("token", token)]), resolvingAgainstBaseURL: false)!
      components.port = URLComponents(url: base, resolvingAgainstBaseURL: false)?.port
      components.user = user
      components.password = password
      var request = p.request(
        "POST", components.url!,
        headers: [
          ("Content-Type", "application/json"), ("Accept", "application/json"), ("X-Api-Key", apiKey),
        ],
        body: try jsonData(["card": ["cvc": secret], "amount": 12]))
      if failure == .timedOut { request.timeoutInterval = failureTimeout }
      scriptServer(for: failure, at: path, plant: plant, on: p.server)
      return [request]
    }
  }

  /// Scripts the answer that makes the exchange at `path` fail by `failure`, planting the
  /// response's canaries with `plant`.
  private static func scriptServer(
    for failure: ExchangeFailure, at path: String, plant: (CanaryShape, CanaryLocation) -> String,
    on server: LoopbackServer
  ) {
    let accepted = ServerResponse.json(#"{"status":"accepted"}"#)
    switch failure {
    case .connectionClosed:
      // A `100 Continue` goes first: a client that sees nothing at all on a connection it reused
      // sends the request again, and FoundationNetworking, rewinding a POST body to do so, may
      // never finish (the request then hangs until its deadline).
      let closing = accepted.preceded(by: InformationalResponse(status: 100)).failing(
        with: .closeBeforeResponse)
      server.on(.post, path, respond: closing)
    case .closedMidBody:
      let items = (1...64).map { #"{"sku":"item-\#($0)","quantity":1}"# }.joined(separator: ",")
      server.on(.post, path, respond: .json(#"{"items":[\#(items)]}"#).failing(with: .closeMidBody))
    case .timedOut, .cancelled:
      server.on(.post, path, respond: accepted.delayed(by: heldAnswer))
    case .malformedStatusLine:
      server.on(.post, path, respond: accepted.failing(with: .malformedStatusLine))
    case .invalidJSON:
      let token = plant(.token, .responseBody(.text))
      server.on(.post, path, respond: .json(#"{"access_token":"\#(token)","expires_in":"#))
    case .wrongContentType:
      let session = plant(.token, .responseBody(.text))
      let page = "<html><body><p>Session \(session) expired. Sign in again.</p></body></html>\n"
      server.on(
        .post, path,
        respond: ServerResponse(
          headers: ["Content-Type": "text/html; charset=utf-8"], body: .fixed(Data(page.utf8))))
    case .serviceUnavailable:
      let requestID = plant(.uuid, .responseBody(.json("request_id")))
      let unavailable = ServerResponse.json(
        #"{"error":"unavailable","request_id":"\#(requestID)"}"#, status: 503
      )
      .header("Retry-After", "1")
      let answered = Locked(0)
      server.on(.post, path) { _ in
        answered.withLock { count in
          defer { count += 1 }
          return count == 0 ? unavailable : accepted
        }
      }
    case .tooManyRequests:
      let requestID = plant(.uuid, .responseBody(.json("request_id")))
      server.on(
        .post, path,
        respond: .json(#"{"error":"rate_limited","request_id":"\#(requestID)"}"#, status: 429)
          .header("Retry-After", "1"))
    case .connectionRefused:
      break  // nothing listens: the request never reaches a server
    }
  }
}

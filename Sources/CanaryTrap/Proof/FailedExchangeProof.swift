import Foundation

/// Proves delivery of a canary planted in an exchange that fails on purpose
/// (``CanaryLocation/failedExchange(_:_:)``): at its own location where the failure leaves one.
///
/// - A request-side canary must reach the server where it was planted, except through a refused
///   connection, where nothing reaches any server: there the request handed to the transport
///   must carry it at that location (read as a server would, userinfo as `Authorization: Basic`).
/// - A URL userinfo canary may also be proven that way for any failure: Apple's URLSession sends
///   userinfo only after a `401` challenge, which a failing exchange never sends.
/// - A response-side canary must come back from the transport, or be written in full by the server
///   to an app whose transport then threw (a client that decodes inside its transport).
enum FailedExchangeProof {
  static func status(of canary: Canary, failure: ExchangeFailure, in evidence: DeliveryEvidence)
    -> CanaryDelivery.Status
  {
    let atLocation = LocationProof.status(of: canary, in: evidence)
    guard atLocation != .delivered else { return .delivered }
    switch canary.location {
    case _ where failure == .connectionRefused,
      .requestURL(.user), .requestURL(.password):
      if LocationProof.status(of: canary, in: evidence.handedOver) == .delivered { return .delivered }
      return failure == .connectionRefused
        ? .undelivered(
          reason: "no request handed to the transport carried it there (the connection was refused, so no"
            + " server could receive it)")
        : atLocation
    case .responseHeader, .responseBody, .responseCookie:
      let carriers = evidence.answered.filter { $0.contains(canary.value) }
      return carriers.contains(where: \.fullyWritten) ? .delivered : atLocation
    default:
      return atLocation
    }
  }
}

extension SentRequest {
  /// The request as a server would receive it: the URL's path and query as the target, its
  /// header fields, its userinfo as `Authorization: Basic` (unless it has one) and its body.
  var asReceived: RecordedRequest {
    var headers = HTTPHeaders()
    for (name, value) in self.headers.sorted(by: { $0.key < $1.key }) { headers.add(name, value) }
    let components = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true) }
    if let user = components?.user, !headers.contains("Authorization") {
      let credentials = Data("\(user):\(components?.password ?? "")".utf8).base64EncodedString()
      headers.add("Authorization", "Basic \(credentials)")
    }
    var target = components?.percentEncodedPath ?? "/"
    if target.isEmpty { target = "/" }
    if let query = components?.percentEncodedQuery { target += "?\(query)" }
    return RecordedRequest(method: method, target: target, headers: headers, body: body ?? Data())
  }
}

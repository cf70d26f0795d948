import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One exchange of the verdict-rule tests: a real scope, its real loopback server, a real
/// `URLSession`, and an app that logs one safe line per request into the scope's memory log.
///
/// The tests state a rule, run the exchange once as the rule forbids and once as it allows (its
/// twin), and read only the public report: so they hold whatever the scope's internals become.
enum VerdictProbe {
  /// What one probe run produced.
  struct Outcome {
    var report: LeakReport
    var value: String

    /// The delivery status of the planted canary.
    var status: CanaryDelivery.Status? { report.deliveries.first { $0.canary.value == value }?.status }
    var isDelivered: Bool { status == .delivered }
  }

  /// How a run changes what the app meant to send or what the server answered.
  struct Change: Sendable {
    var request: @Sendable (URLRequest, String) -> URLRequest = { request, _ in request }
    var response: @Sendable (Data, HTTPURLResponse, String) -> (Data, HTTPURLResponse) = {
      data, response, _ in
      (data, response)
    }
    /// How many times the app sends the request (a retry sends it twice).
    var sends = 1
    /// Changes only the sends after the first (with `sends > 1`).
    var changesOnlyRetries = false
    /// How the session's redirect delegate changes the request of a followed redirect hop.
    var redirect: (@Sendable (URLRequest, String) -> URLRequest)? = nil

    static let none = Change()
  }

  /// A scope without standard-stream capture, so other tests' output never matters here.
  static let quiet = CanaryTrap.Configuration(captureStandardStreams: false)

  /// Plants a canary at `location`, lets `plant` put it in the app's request and `respond` in the
  /// server's answer, sends the request through URLSession changed by `change`, and finishes.
  /// `serve` adds routes besides that answer (a redirect and its target).
  static func run(
    _ location: CanaryLocation, shape: CanaryShape = .token, change: Change = .none,
    plant: @escaping @Sendable (URLRequest, String) -> URLRequest = { request, _ in request },
    respond: @escaping @Sendable (String) -> ServerResponse = { _ in .text("ok") },
    serve: (@Sendable (LoopbackServer, String) -> Void)? = nil
  ) async -> Outcome {
    let planted = Locked("")
    let (_, report) = await CanaryTrap.withScope(title: "verdict-rule", configuration: quiet) { trap in
      let log = trap.memoryLog()
      let value = trap.canary(shape, at: location)
      planted.withLock { $0 = value }
      trap.server.setFallback { _ in respond(value) }
      serve?(trap.server, value)
      let redirects = RedirectEditor()
      let session = session(delegate: redirects)
      defer { session.finishTasksAndInvalidate() }
      let intended = plant(URLRequest(url: trap.baseURL.appendingPathComponent("api/item")), value)
      for attempt in 0..<change.sends {
        let applies = !(change.changesOnlyRetries && attempt == 0)
        let changed = applies ? change.request(intended, value) : intended
        let redirect: (@Sendable (URLRequest) -> URLRequest)? =
          applies ? change.redirect.map { edit in { @Sendable request in edit(request, value) } } : nil
        redirects.edit.withLock { $0 = redirect }
        trap.observe(request: intended)
        do {
          let (data, response) = try await Transport.urlSession(session).send(changed)
          guard let http = response as? HTTPURLResponse else { continue }
          let (seenData, seenResponse) = applies ? change.response(data, http, value) : (data, http)
          trap.observe(seenData, seenResponse)
          log.write("\(intended.httpMethod ?? "GET") /api/item -> \(http.statusCode)")
        } catch {
          trap.reportError("the probe's request failed: \(error)")
        }
      }
    }
    return Outcome(report: report, value: planted.current)
  }

  /// A fresh ephemeral session, so no test shares cookies with another; `delegate` may change
  /// the request of each redirect it follows.
  static func session(delegate: RedirectEditor? = nil) -> URLSession {
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }
}

/// Edits of a request or a response, as a transport or a redacting middleware would make them.
enum Edit {
  /// `text` with every occurrence of `value` replaced by a same-length run of `x`.
  static func redact(_ text: String, _ value: String) -> String {
    text.replacingOccurrences(of: value, with: String(repeating: "x", count: value.count))
  }

  /// The request with `value` redacted everywhere: URL, every header, the body.
  static func redactEverywhere(_ request: URLRequest, _ value: String) -> URLRequest {
    var changed = request
    if let url = request.url?.absoluteString { changed.url = URL(string: redact(url, value)) }
    for (name, field) in request.allHTTPHeaderFields ?? [:] {
      changed.setValue(redact(field, value), forHTTPHeaderField: name)
    }
    if let body = request.httpBody {
      changed.httpBody = Data(redact(String(decoding: body, as: UTF8.self), value).utf8)
    }
    return changed
  }

  /// The request with `value` removed from the URL, the headers and the body (the carrier is
  /// dropped: a header or a query item disappears, a body loses the field).
  static func dropEverywhere(_ request: URLRequest, _ value: String) -> URLRequest {
    var changed = request
    if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
      components.queryItems = components.queryItems?.filter { $0.value != value }
      if components.queryItems?.isEmpty == true { components.queryItems = nil }
      components.percentEncodedPath = components.percentEncodedPath.replacingOccurrences(
        of: "/" + value, with: "")
      changed.url = components.url
    }
    for (name, field) in request.allHTTPHeaderFields ?? [:] where field.contains(value) {
      changed.setValue(nil, forHTTPHeaderField: name)
    }
    if request.httpBody.map({ String(decoding: $0, as: UTF8.self).contains(value) }) == true {
      changed.httpBody = Data("{}".utf8)
    }
    return changed
  }

  /// The request without `value` where it was, carrying it in `X-Moved` instead (or in the
  /// query when it was a header already).
  static func move(_ request: URLRequest, _ value: String) -> URLRequest {
    let wasHeader = (request.allHTTPHeaderFields ?? [:]).values.contains { $0.contains(value) }
    var changed = dropEverywhere(request, value)
    if wasHeader, let url = changed.url,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    {
      components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "moved", value: value)]
      changed.url = components.url
    } else {
      changed.setValue(value, forHTTPHeaderField: "X-Moved")
    }
    return changed
  }

  /// A copy of `response` with other header fields.
  static func response(_ response: HTTPURLResponse, headers: [String: String]) -> HTTPURLResponse {
    HTTPURLResponse(
      url: response.url!, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)!
  }

  /// The response's header fields as strings.
  static func headers(of response: HTTPURLResponse) -> [String: String] {
    var fields: [String: String] = [:]
    for (key, value) in response.allHeaderFields {
      fields[String(describing: key)] = String(describing: value)
    }
    return fields
  }
}

/// A session delegate that follows every redirect, first passing the followed hop's request
/// through `edit` when set: a transport that rewrites a redirect before following it.
final class RedirectEditor: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  /// The change made to the next followed hops; nil follows them as they are.
  let edit = Locked<(@Sendable (URLRequest) -> URLRequest)?>(nil)

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(edit.current.map { $0(request) } ?? request)
  }
}

import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport decorator that logs one redacted line per exchange, with a request ID the server
/// receives too, so a support engineer can find the server's full record from the client's line.
///
/// Every part of the line goes through a ``Redactor``: headers, query values and JSON values are
/// kept only when allowlisted, path segments that look like data are replaced by their shape, the
/// `Location` of each redirect and the final URL are redacted like the request URL, and the line
/// is capped at ``maxLineBytes``.
package final class RedactingTransport: HTTPClientTransport {
  /// The longest line written, in UTF-8 bytes.
  package static let maxLineBytes = 2048
  /// The header that carries the request ID to the server.
  package static let requestIDHeader = "X-Request-ID"

  /// The session that sends the requests; it follows redirects and records each hop.
  package let session: URLSession
  /// What decides which parts of an exchange are safe to log.
  package let redactor: Redactor
  /// Where the lines go.
  package let sink: any LogSink
  private let recorder: RedirectRecorder

  /// Creates a transport with its own session built from `configuration`, without its URL cache:
  /// a request is cancelled with the task awaiting it, and FoundationNetworking traps when a task
  /// is cancelled during its cache lookup.
  package init(
    configuration: URLSessionConfiguration = .ephemeral, redactor: Redactor = Redactor(),
    sink: any LogSink
  ) {
    let recorder = RedirectRecorder()
    self.recorder = recorder
    let uncached = configuration.copy() as! URLSessionConfiguration
    uncached.urlCache = nil
    self.session = URLSession(configuration: uncached, delegate: recorder, delegateQueue: nil)
    self.redactor = redactor
    self.sink = sink
  }

  /// Cancels outstanding tasks and releases the session.
  package func invalidate() {
    session.invalidateAndCancel()
  }

  /// Sends the request with a fresh request ID and logs one redacted line about the exchange.
  package func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let started = ContinuousClock.now
    let requestID = String(UUID().uuidString.prefix(8)).lowercased()
    var request = request
    if request.value(forHTTPHeaderField: Self.requestIDHeader) == nil {
      request.setValue(requestID, forHTTPHeaderField: Self.requestIDHeader)
    }
    let summary = describeRequest(request, id: requestID)
    do {
      let (data, response, hops) = try await load(request)
      let elapsed = ContinuousClock.now - started
      sink.write(capped(summary + describeHops(hops) + " " + describeResponse(response, data, elapsed)))
      return (data, response)
    } catch {
      let code = (error as? URLError)?.code.rawValue ?? -1
      sink.write(capped(summary + " → failed URLError \(code)"))
      throw error
    }
  }

  /// Sends the request on a data task whose redirects the recorder sees.
  private func load(_ request: URLRequest) async throws -> (Data, URLResponse, [RedirectRecorder.Hop]) {
    try await RecordedDataTask.load(request, on: session, recorder: recorder)
  }

  /// `[id] METHOD url headers=[…] body=…`, all redacted.
  private func describeRequest(_ request: URLRequest, id: String) -> String {
    let headers = (request.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) }
    let body = redactor.body(
      request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"))
    return "[\(id)] \(request.httpMethod ?? "GET") \(redactor.url(request.url))"
      + " headers=\(redactor.headers(headers)) body=\(body)"
  }

  /// ` → 302 location=<redacted url>` for each redirect followed.
  private func describeHops(_ hops: [RedirectRecorder.Hop]) -> String {
    hops.map { " → \($0.status) location=\(redactor.url($0.location))" }.joined()
  }

  /// `→ 200 final=url 60B 7ms headers=[…] body=…`, all redacted.
  private func describeResponse(_ response: URLResponse, _ data: Data, _ elapsed: Duration) -> String {
    let milliseconds =
      elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    guard let http = response as? HTTPURLResponse else {
      return "→ final=\(redactor.url(response.url)) \(data.count)B \(milliseconds)ms"
    }
    let headers = http.allHeaderFields.map { (name: "\($0.key)", value: "\($0.value)") }
    let body = redactor.body(data, contentType: http.value(forHTTPHeaderField: "Content-Type"))
    return "→ \(http.statusCode) final=\(redactor.url(http.url)) \(data.count)B \(milliseconds)ms"
      + " headers=\(redactor.headers(headers)) body=\(body)"
  }

  /// The line cut to ``maxLineBytes`` UTF-8 bytes, marked when cut.
  func capped(_ line: String) -> String {
    let bytes = Array(line.utf8)
    guard bytes.count > Self.maxLineBytes else { return line }
    let marker = " …[truncated]"
    var end = Self.maxLineBytes - marker.utf8.count
    while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // never cut a scalar in half
    return String(decoding: bytes[..<end], as: UTF8.self) + marker
  }
}

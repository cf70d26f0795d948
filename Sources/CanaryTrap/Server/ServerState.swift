import Foundation

/// Routes and recordings of one server, shared by the public API and the I/O thread.
final class ServerState: Sendable {
  typealias Handler = @Sendable (RecordedRequest) -> ServerResponse

  private struct RouteKey: Hashable {
    var method: String
    var path: String
  }

  private let routes = Locked([RouteKey: Handler]())
  private let fallback = Locked<Handler>({ _ in .text("no route\n", status: 404) })
  private struct Log {
    var requests: [RecordedRequest] = []
    var responses: [SentResponse] = []
    var nextSequence = 0
  }

  private let log = Locked(Log())
  let recordsRequests: Bool

  init(recordsRequests: Bool) { self.recordsRequests = recordsRequests }

  func setRoute(_ method: HTTPMethod, _ path: String, _ handler: @escaping Handler) {
    routes.withLock { $0[RouteKey(method: method.rawValue, path: path)] = handler }
  }

  func setFallback(_ handler: @escaping Handler) {
    fallback.withLock { $0 = handler }
  }

  /// The handler for `request`: exact method and path, then any method, then the decoded path,
  /// then the fallback.
  func handler(for request: RecordedRequest) -> Handler {
    let exact = routes.withLock { table in
      table[RouteKey(method: request.method, path: request.path)]
        ?? table[RouteKey(method: HTTPMethod.any.rawValue, path: request.path)]
    }
    if let exact { return exact }
    if request.path.utf8.contains(UInt8(ascii: "%")), let decoded = request.path.removingPercentEncoding {
      let found = routes.withLock { table in
        table[RouteKey(method: request.method, path: decoded)]
          ?? table[RouteKey(method: HTTPMethod.any.rawValue, path: decoded)]
      }
      if let found { return found }
    }
    return fallback.current
  }

  /// Appends `request`, numbering it in arrival order, and returns it numbered.
  @discardableResult
  func record(_ request: RecordedRequest) -> RecordedRequest {
    var numbered = request
    log.withLock {
      numbered.sequence = $0.nextSequence
      $0.nextSequence += 1
      if recordsRequests || request.malformed != nil { $0.requests.append(numbered) }
    }
    return numbered
  }

  /// Appends the answer to a request and returns its index for ``markWritten(_:)``, or nil when
  /// the server does not record.
  func recordResponse(_ response: SentResponse) -> Int? {
    guard recordsRequests else { return nil }
    return log.withLock {
      $0.responses.append(response)
      return $0.responses.count - 1
    }
  }

  /// Notes that every byte of the response at `index` reached the socket.
  func markWritten(_ index: Int) {
    log.withLock { if index < $0.responses.count { $0.responses[index].fullyWritten = true } }
  }

  var requests: [RecordedRequest] { log.withLock { $0.requests } }

  var responses: [SentResponse] { log.withLock { $0.responses } }

  func clearRequests() {
    log.withLock {
      $0.requests.removeAll()
      $0.responses.removeAll()
    }
  }
}

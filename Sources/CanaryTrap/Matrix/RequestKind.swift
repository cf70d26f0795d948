import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One kind of HTTP exchange the matrix drives through the app's transport: it mints canaries
/// for the locations it covers, scripts the scope's server, and returns the requests to send.
///
/// The catalog is open: build your own kind with ``init(name:summary:setsCookies:failure:plant:)`` and pass it to
/// ``CanaryTrap/runMatrix(through:kinds:fileID:filePath:line:column:)`` next to (or instead of) ``all``.
///
/// **URL convention (the tracer).** Every request of a kind goes to
/// `/<tracer>/<kind name>/<data segments…>?<query>`: the first two path segments are the *route*,
/// which never holds a canary, and the first of them is the scope's ``CanaryTrap/tracer``. A safe
/// logger that prints the method and the route (the first two path segments, or the whole path
/// with every later segment redacted) therefore prints the tracer and no canary, so its sink is
/// proven to have heard the run; a sink with neither tracer nor canary is reported silent.
public struct RequestKind: Sendable {
  /// A short name, also the second path segment of the kind's URLs (`[a-z0-9-]`).
  public let name: String
  /// One sentence saying what the kind exercises.
  public let summary: String
  /// Whether the kind's server sets cookies. Such kinds run after every other kind of the matrix
  /// has finished, and send to ``KindPlanter/cookieHost``: a session that stores cookies may send
  /// them with, or instead of, the `Cookie` header of other requests to the same host
  /// (FoundationNetworking replaces the app's header and ignores the cookie's `Path`).
  public let setsCookies: Bool
  /// How the kind's exchanges fail on purpose, or nil when they succeed. The matrix then expects
  /// every request of the kind to fail that way: the transport must throw, or return one of the
  /// failure's statuses, and a request that succeeds instead makes the run inconclusive (the
  /// app's error path never ran). See `failures`.
  public let failure: ExchangeFailure?
  /// Mints the kind's canaries, scripts the server and returns the requests, sent in order.
  public let plant: @Sendable (KindPlanter) throws -> [URLRequest]

  /// Creates a request kind.
  public init(
    name: String, summary: String, setsCookies: Bool = false, failure: ExchangeFailure? = nil,
    plant: @escaping @Sendable (KindPlanter) throws -> [URLRequest]
  ) {
    self.name = name
    self.summary = summary
    self.setsCookies = setsCookies
    self.failure = failure
    self.plant = plant
  }
}

/// What a ``RequestKind`` plants with: the scope, the kind's route, and a canary minter that
/// remembers which canaries belong to the kind.
public final class KindPlanter: Sendable {
  /// The scope the kind runs in.
  package let trap: CanaryTrap
  /// The kind being planted.
  package let kindName: String
  /// Where the kind's canaries count as planted in the user's code: the `runMatrix` call.
  let plantedAt: ReportSourceLocation?
  private let minted = Locked<[Canary]>([])

  /// Creates a planter for the kind named `kindName` in `trap`.
  package convenience init(trap: CanaryTrap, kindName: String) {
    self.init(trap: trap, kindName: kindName, plantedAt: nil)
  }

  /// Creates a planter whose canaries count as planted at `plantedAt`.
  init(trap: CanaryTrap, kindName: String, plantedAt: ReportSourceLocation?) {
    self.trap = trap
    self.kindName = kindName
    self.plantedAt = plantedAt
  }

  /// The scope's server, to script routes.
  public var server: LoopbackServer { trap.server }

  /// The route every URL of the kind starts with: `/<tracer>/<kind name>`.
  public var route: String { "/\(trap.tracer)/\(kindName)" }

  /// The index of the first path segment after the route, where path canaries go.
  package static let firstDataSegment = 2

  /// The canaries minted for this kind so far.
  package var canaries: [Canary] { minted.current }

  /// Mints a canary for `location`, proven at its location unless `proof` says otherwise.
  public func canary(_ shape: CanaryShape, at location: CanaryLocation, proof: DeliveryProof = .atLocation)
    -> String
  {
    let value = trap.plant(shape, at: location, proof: proof, site: plantedAt)
    if let canary = trap.canaries.canary(withValue: value) { minted.withLock { $0.append(canary) } }
    return value
  }

  /// The path `route/segments…`, each segment percent-encoded for a path.
  public func path(_ segments: String...) -> String {
    path(segments)
  }

  /// The path `route/segments…`, each segment percent-encoded for a path.
  public func path(_ segments: [String]) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/;")
    return ([route] + segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 })
      .joined(separator: "/")
  }

  /// An absolute URL on the scope's server for `path` (already encoded; any character a path may
  /// not hold is percent-encoded) and `query` items.
  public func url(_ path: String, query: [(String, String)] = [], fragment: String? = nil) -> URL {
    var components = URLComponents(url: trap.baseURL, resolvingAgainstBaseURL: false)!
    var allowedInPath = CharacterSet.urlPathAllowed
    allowedInPath.insert(charactersIn: "%;")
    let absolute = path.hasPrefix("/") ? path : "/" + path
    components.percentEncodedPath =
      absolute.addingPercentEncoding(withAllowedCharacters: allowedInPath) ?? route
    if !query.isEmpty {
      var allowed = CharacterSet.urlQueryAllowed
      allowed.remove(charactersIn: "&=+#")
      components.percentEncodedQuery = query.map { name, value in
        "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)="
          + value.addingPercentEncoding(withAllowedCharacters: allowed)!
      }.joined(separator: "&")
    }
    if let fragment { components.fragment = fragment }
    return components.url ?? trap.baseURL
  }

  /// The host a kind that sets cookies sends to: `localhost` when the server is on 127.0.0.1, so
  /// that a cookie store keeps its cookies apart from every other kind's requests (see
  /// ``RequestKind/signIn``); the server's own host otherwise.
  public var cookieHost: String {
    trap.baseURL.host == "127.0.0.1" ? "localhost" : (trap.baseURL.host ?? "127.0.0.1")
  }

  /// Like ``url(_:query:fragment:)``, on ``cookieHost``.
  public func cookieURL(_ path: String, query: [(String, String)] = []) -> URL {
    let url = self.url(path, query: query)
    guard cookieHost != url.host,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return url }
    components.host = cookieHost
    return components.url ?? url
  }

  /// A request for `url` with `method`, `headers` and `body`.
  public func request(
    _ method: String, _ url: URL, headers: [(String, String)] = [], body: Data? = nil
  ) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    return request
  }
}

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `URLProtocol` a ``NetworkInspector`` installs: it takes over each request of an
/// inspected session, forwards it through one internal session from a separate task, records
/// the exchange in every live inspector, and hands the response back to the app's session.
///
/// The nested load never starts synchronously inside `startLoading()`: on FoundationNetworking
/// that deadlocks.
final class InspectorURLProtocol: URLProtocol {
  private struct WeakInspector: @unchecked Sendable {
    weak var inspector: NetworkInspector?
  }

  private static let inspectors = Protected<[WeakInspector]>([])
  private static let recorder = RedirectRecorder()
  private static let forwardingSession: URLSession = {
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration, delegate: recorder, delegateQueue: nil)
  }()
  private let forwarding = Protected<Task<Void, Never>?>(nil)
  private let stopped = Protected<Bool>(false)

  /// Makes `inspector` findable by the requests of sessions it is installed in.
  static func register(_ inspector: NetworkInspector) {
    inspectors.withLock { registry in
      registry = registry.filter { $0.inspector != nil } + [WeakInspector(inspector: inspector)]
    }
  }

  /// The inspectors still alive.
  private static var liveInspectors: [NetworkInspector] {
    inspectors.withLock { $0.compactMap(\.inspector) }
  }

  override class func canInit(with request: URLRequest) -> Bool {
    ["http", "https"].contains(request.url?.scheme?.lowercased() ?? "")
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest {
    request
  }

  override func startLoading() {
    // URLProtocol is not Sendable; the task is its only user until stopLoading() cancels it.
    nonisolated(unsafe) let loader = self
    let task = Task { await loader.forwardAndRecord() }
    forwarding.withLock { $0 = task }
  }

  override func stopLoading() {
    stopped.withLock { $0 = true }
    forwarding.withLock { $0?.cancel() }
  }

  /// The app's session, unless it already stopped this load: FoundationNetworking traps
  /// ("task not in the registry") when a stopped protocol still calls its client.
  private var liveClient: (any URLProtocolClient)? {
    stopped.withLock { $0 } ? nil : client
  }

  /// Sends the request on, records the exchange and passes the outcome to the app's session.
  private func forwardAndRecord() async {
    var outgoing = request
    if outgoing.httpBody == nil, let stream = outgoing.httpBodyStream {
      outgoing.httpBodyStream = nil
      outgoing.httpBody = Self.readAll(stream)
    }
    let started = Date()
    var entry = InspectorEntry(
      startedAt: started, duration: 0, method: outgoing.httpMethod ?? "GET",
      url: outgoing.url?.absoluteString ?? "",
      requestHeaders: (outgoing.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map {
        InspectorEntry.Header(name: $0.key, value: $0.value)
      },
      requestBody: outgoing.httpBody, statusCode: nil, responseHeaders: [], responseBody: nil,
      redirects: [], finalURL: nil, error: nil)
    do {
      let (data, response, hops) = try await Self.forward(outgoing)
      entry.duration = Date().timeIntervalSince(started)
      entry.redirects = hops.map { .init(status: $0.status, location: $0.location?.absoluteString ?? "") }
      entry.finalURL = response.url?.absoluteString
      entry.responseBody = data
      if let http = response as? HTTPURLResponse {
        entry.statusCode = http.statusCode
        entry.responseHeaders = http.allHeaderFields.map {
          InspectorEntry.Header(name: "\($0.key)", value: "\($0.value)")
        }.sorted { $0.name < $1.name }
      }
      for inspector in Self.liveInspectors { inspector.record(entry) }
      liveClient?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      liveClient?.urlProtocol(self, didLoad: data)
      liveClient?.urlProtocolDidFinishLoading(self)
    } catch {
      entry.duration = Date().timeIntervalSince(started)
      entry.error = "\(error)"
      for inspector in Self.liveInspectors { inspector.record(entry) }
      liveClient?.urlProtocol(self, didFailWithError: error)
    }
  }

  /// Sends `request` on the internal session, following redirects and recording each hop.
  private static func forward(_ request: URLRequest) async throws -> (
    Data, URLResponse, [RedirectRecorder.Hop]
  ) {
    try await RecordedDataTask.load(request, on: forwardingSession, recorder: recorder)
  }

  /// Every byte of a request body stream.
  private static func readAll(_ stream: InputStream) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    stream.open()
    defer { stream.close() }
    while true {
      let count = stream.read(&buffer, maxLength: buffer.count)
      if count <= 0 { break }
      data.append(buffer, count: count)
    }
    return data
  }
}

import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A crash reporter's network breadcrumbs, written the way such SDKs write them: every request
/// the app sends becomes a breadcrumb, and the breadcrumbs are uploaded in batches, compressed
/// with zlib (`Content-Encoding: deflate`), to an intake URL, at once when a request fails.
///
/// With ``Detail/full`` a breadcrumb keeps the URL, its query (`http.query`) and fragment
/// (`http.fragment`), as Sentry's network breadcrumbs do, so whatever the app put in a URL leaves
/// the process. With ``Detail/routeOnly`` it keeps the method, the route's shape and the status.
package final class BreadcrumbUploader: HTTPClientTransport {
  /// What a breadcrumb keeps of a request.
  package enum Detail: Sendable, Hashable {
    /// The URL with its query and fragment, the method, the status and the error.
    case full
    /// The method, the route with every path segment replaced by `:x`, and the status.
    case routeOnly
  }

  /// The intake URL the batches are posted to.
  package let endpoint: URL
  /// What a breadcrumb keeps.
  package let detail: Detail
  /// How many breadcrumbs make a batch.
  package let batchSize: Int
  /// Whether batches are uploaded at all: false is an uploader whose flush never runs.
  package let uploads: Bool
  private let session: URLSession
  private let apiKey: String
  private let pending = Protected<[Breadcrumb]>([])

  /// Creates an uploader that sends the app's requests and its batches through `session`,
  /// posting to `endpoint` with the SDK's own `DD-API-KEY: apiKey`.
  package init(
    endpoint: URL, detail: Detail = .full, batchSize: Int = 8, uploads: Bool = true,
    apiKey: String = "pub0123456789abcdef", session: URLSession
  ) {
    self.endpoint = endpoint
    self.detail = detail
    self.batchSize = max(1, batchSize)
    self.uploads = uploads
    self.apiKey = apiKey
    self.session = session
  }

  /// Sends `request`, records it as a breadcrumb, and uploads a full batch (or at once, on a failure).
  package func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    do {
      let (data, response) = try await session.data(for: request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      if record(Breadcrumb(request, status: status, error: nil, detail: detail)) || status >= 400 {
        try? await flush()
      }
      return (data, response)
    } catch {
      record(Breadcrumb(request, status: 0, error: "\(error)", detail: detail))
      try? await flush()
      throw error
    }
  }

  /// Uploads every pending breadcrumb as one batch, retrying twice after a 429 or 503 (waiting
  /// its `Retry-After`, at most one second); does nothing when ``uploads`` is false.
  package func flush() async throws {
    guard uploads else { return }
    let batch = pending.withLock { pending -> [Breadcrumb] in
      defer { pending = [] }
      return pending
    }
    guard !batch.isEmpty else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var upload = URLRequest(url: endpoint)
    upload.httpMethod = "POST"
    upload.setValue("application/json", forHTTPHeaderField: "Content-Type")
    upload.setValue("deflate", forHTTPHeaderField: "Content-Encoding")
    upload.setValue(apiKey, forHTTPHeaderField: "DD-API-KEY")
    do {
      let body = try ContentCoding.deflate.encode(try encoder.encode(batch))
      for attempt in 1...3 {
        let (_, response) = try await session.upload(for: upload, from: body)
        let http = response as? HTTPURLResponse
        guard let http, [429, 503].contains(http.statusCode), attempt < 3 else { return }
        let wait = min(1, Double(http.value(forHTTPHeaderField: "Retry-After") ?? "") ?? 1)
        try await Task.sleep(for: .seconds(wait))
      }
    } catch {
      // An upload that did not happen (the sending task was cancelled, the intake unreachable)
      // keeps its breadcrumbs for the next flush instead of losing the whole batch.
      pending.withLock { $0 = batch + $0 }
      throw error
    }
  }

  /// Keeps `breadcrumb`; returns whether a batch is full.
  @discardableResult
  private func record(_ breadcrumb: Breadcrumb) -> Bool {
    pending.withLock { pending in
      pending.append(breadcrumb)
      return pending.count >= batchSize
    }
  }
}

/// One network breadcrumb, shaped like Sentry's: `type`, `category` and `data`.
struct Breadcrumb: Encodable {
  var type = "http"
  var category = "http"
  var data: [String: String]

  init(_ request: URLRequest, status: Int, error: String?, detail: BreadcrumbUploader.Detail) {
    let method = request.httpMethod ?? "GET"
    let url = request.url
    switch detail {
    case .full:
      data = ["method": method, "status_code": String(status)]
      if let url {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        data["http.query"] = components?.percentEncodedQuery
        data["http.fragment"] = components?.percentEncodedFragment
        components?.percentEncodedQuery = nil
        components?.fragment = nil
        data["url"] = components?.string ?? url.absoluteString
      }
      if let error { data["reason"] = error }
    case .routeOnly:
      let segments = url?.path.split(separator: "/").count ?? 0
      let route = segments == 0 ? "/" : String(repeating: "/:x", count: segments)
      data = ["method": method, "route": route, "status_code": String(status)]
    }
  }
}

import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Scans what a `URLCache` holds, in memory and on disk: each cached response's URL, status,
/// headers and body, plus the raw bytes of every file in the cache's disk directory.
///
/// `URLCache` has no public way to list its entries, so the sink finds them three ways: the
/// requests you name (``lookUp(_:)-(URLRequest)``), the entries of FoundationNetworking's cache
/// on Linux (found by reflection: memory entries and the disk directory's
/// `*.storedcachedurlresponse` files), and the files of `diskDirectory` if you give one (on Apple
/// platforms, the directory passed to `URLCache(memoryCapacity:diskCapacity:directory:)`). The
/// whole cache is scanned, not only what was stored during the scope. Findings are named
/// `url-cache:` and the response's URL, or `url-cache:disk/` and the URL a FoundationNetworking
/// disk entry caches (its file name holds the time it was stored), or a file's relative path.
public final class URLCacheSink: LeakSink, ImmediatelyBeginningSink {
  /// The prefix of every finding's name, `url-cache` unless told otherwise.
  public let name: String
  private let cache: CacheReference
  private let diskDirectory: URL?
  private let requests: Locked<[URLRequest]>

  /// Scans `cache`, looking up `requests` and, if given, every file under `diskDirectory`.
  public init(
    cache: URLCache = .shared, name: String = "url-cache", lookingUp requests: [URLRequest] = [],
    diskDirectory: URL? = nil
  ) {
    self.name = name
    self.cache = CacheReference(cache: cache)
    self.diskDirectory = diskDirectory
    self.requests = Locked(requests)
  }

  /// Scans `cache`, looking up `urls` and, if given, every file under `diskDirectory`.
  public convenience init(
    cache: URLCache = .shared, name: String = "url-cache", lookingUp urls: [URL], diskDirectory: URL? = nil
  ) {
    self.init(
      cache: cache, name: name, lookingUp: urls.map { URLRequest(url: $0) }, diskDirectory: diskDirectory)
  }

  /// Adds a request whose cached response the sink looks up when the scope ends.
  public func lookUp(_ request: URLRequest) {
    requests.withLock { $0.append(request) }
  }

  /// Adds a URL whose cached response the sink looks up when the scope ends.
  public func lookUp(_ url: URL) {
    lookUp(URLRequest(url: url))
  }

  /// Every cached response found, flattened to text, then every disk file's raw bytes.
  public func collect() async throws -> [SinkContent] {
    let cache = self.cache.cache
    let discovered = CacheDiscovery(cache: cache)
    var responses: [CachedURLResponse] = requests.current.compactMap { cache.cachedResponse(for: $0) }
    responses += discovered.memoryResponses
    responses += discovered.diskLookupRequests.compactMap { cache.cachedResponse(for: $0) }

    var contents: [SinkContent] = []
    var seen: Set<Data> = []
    for response in responses {
      let text = CachedResponseText.flatten(response)
      guard seen.insert(text).inserted else { continue }
      let url = response.response.url?.absoluteString ?? "unknown-url"
      contents.append(.bytes(text, name: "\(name):\(url)"))
    }
    for directory in [diskDirectory, discovered.diskDirectory].compactMap({ $0 }) {
      contents += diskFiles(in: directory).filter { file in !contents.contains { $0.storage == file.storage }
      }
    }
    return contents
  }

  private func diskFiles(in directory: URL) -> [SinkContent] {
    let root = directory.standardizedFileURL.path
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var files: [SinkContent] = []
    while let relative = walker.nextObject() as? String {
      let path = root + "/" + relative
      guard FileIdentity(path: path) != nil else { continue }
      files.append(
        .file(URL(fileURLWithPath: path), from: 0, name: "\(name):disk/\(Self.stableName(of: relative))"))
    }
    return files.sorted { $0.name < $1.name }
  }

  /// A disk file's name as reports show it: the URL a FoundationNetworking entry caches instead
  /// of its file name, which starts with the time it was stored (so differs in every run);
  /// any other file keeps its path relative to the cache directory.
  static func stableName(of relative: String) -> String {
    let fileName = relative.split(separator: "/").last.map(String.init) ?? relative
    guard let url = CacheDiscovery.entryURL(fileName: fileName) else { return relative }
    return url.absoluteString
  }

  /// Needs no set-up: the whole store is read when the scope ends.
  func beginImmediately(_ window: SinkWindow) throws {}
}

/// Holds a `URLCache`, which is thread-safe but not marked `Sendable` on every platform.
private struct CacheReference: @unchecked Sendable {
  let cache: URLCache
}

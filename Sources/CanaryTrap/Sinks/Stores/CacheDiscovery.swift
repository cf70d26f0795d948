import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What can be learned about a `URLCache`'s entries without a public listing API: on Linux,
/// FoundationNetworking's cache keeps its memory entries and its disk directory in stored
/// properties that reflection can read, and names disk files after the entry's host, port and
/// path. On Apple platforms the cache is an Objective-C object and nothing is found this way.
struct CacheDiscovery {
  /// Responses held in the cache's memory.
  private(set) var memoryResponses: [CachedURLResponse] = []
  /// The cache's disk directory, if it has one.
  private(set) var diskDirectory: URL?
  /// A request for each entry found on disk, to look it up through the cache.
  private(set) var diskLookupRequests: [URLRequest] = []

  init(cache: URLCache) {
    #if canImport(FoundationNetworking)
      collect(from: Mirror(reflecting: cache), depth: 0)
      if let diskDirectory {
        diskLookupRequests = Self.requestsForDiskEntries(in: diskDirectory)
      }
    #endif
  }

  private mutating func collect(from mirror: Mirror, depth: Int) {
    guard depth < 6 else { return }
    for child in mirror.children {
      if let response = child.value as? CachedURLResponse {
        memoryResponses.append(response)
      } else if child.label == "cacheDirectory", let url = child.value as? URL {
        diskDirectory = url
      } else if !(child.value is NSObject) || depth == 0 {
        collect(from: Mirror(reflecting: child.value), depth: depth + 1)
      }
    }
    if let superclass = mirror.superclassMirror, depth == 0 {
      collect(from: superclass, depth: depth + 1)
    }
  }

  /// Requests for FoundationNetworking's disk entries (see ``entryURL(fileName:)``).
  static func requestsForDiskEntries(in directory: URL) -> [URLRequest] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().compactMap { entryURL(fileName: $0).map { URLRequest(url: $0) } }
  }

  /// The URL a FoundationNetworking disk entry caches, read from its file name
  /// `TIME.IDENTIFIER.storedcachedurlresponse` where IDENTIFIER is the base64 of
  /// `host NUL port NUL path NUL`; nil for any other name.
  static func entryURL(fileName name: String) -> URL? {
    let parts = name.split(separator: ".")
    guard parts.count == 3, parts[2] == "storedcachedurlresponse",
      let decoded = Data(base64Encoded: String(parts[1]))
    else { return nil }
    let fields = decoded.split(separator: 0, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard fields.count >= 3, !fields[0].isEmpty else { return nil }
    var components = URLComponents()
    components.scheme = "http"
    components.host = fields[0]
    components.port = Int(fields[1]).flatMap { $0 >= 0 ? $0 : nil }
    components.percentEncodedPath = fields[2]
    return components.url
  }
}

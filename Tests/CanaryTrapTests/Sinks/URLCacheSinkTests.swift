import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An app's offline cache: fetches through a real URLSession and keeps the response in a
/// `URLCache`. FoundationNetworking never stores URLSession responses in the session's cache by
/// itself (its HTTP protocol reports every response as `.notAllowed`), so on Linux the app
/// stores it the way offline and image caches commonly do; on Apple platforms the session did.
private struct OfflineProfileClient {
  let session: URLSession
  let cache: URLCache
  var storagePolicy = URLCache.StoragePolicy.allowed

  func fetch(_ url: URL) async throws -> Data {
    let request = URLRequest(url: url)
    let (data, response) = try await session.data(for: request)
    if cache.cachedResponse(for: request) == nil {
      cache.storeCachedResponse(
        CachedURLResponse(response: response, data: data, userInfo: nil, storagePolicy: storagePolicy),
        for: request)
    }
    return data
  }
}

@Suite struct URLCacheSinkTests {
  private struct Fixture {
    let directory: URL
    let server: LoopbackServer
    let cache: URLCache
    let client: OfflineProfileClient

    init(storagePolicy: URLCache.StoragePolicy = .allowed) throws {
      directory = try SinkTestSupport.makeTemporaryDirectory()
      server = try StoreSinkTestSupport.startServer()
      cache = StoreSinkTestSupport.makeCache(in: directory)
      client = OfflineProfileClient(
        session: StoreSinkTestSupport.makeSession(cache: cache), cache: cache, storagePolicy: storagePolicy)
    }

    func tearDown() {
      server.stop()
      try? FileManager.default.removeItem(at: directory)
    }

    func serveProfile(body: String, trace: String) -> URL {
      server.on(.get, "/profile") { _ in
        .json(["access_token": body]).header("Cache-Control", "max-age=600").header("X-Trace", trace)
      }
      return server.baseURL.appendingPathComponent("profile")
    }
  }

  @Test func aCachedResponseLeaksItsBodyAndHeadersIntoTheCache() async throws {
    let fixture = try Fixture()
    defer { fixture.tearDown() }
    let bodyCanary = SinkTestSupport.canary()
    let headerCanary = SinkTestSupport.canary()
    let url = fixture.serveProfile(body: bodyCanary, trace: headerCanary)
    let sink = URLCacheSink(cache: fixture.cache, lookingUp: [url])
    let contents = try await SinkTestSupport.capture(sink) {
      _ = try await fixture.client.fetch(url)
    }
    let entry = try #require(contents.first { $0.name == "url-cache:\(url.absoluteString)" })
    let text = try SinkTestSupport.bytes(of: entry)
    #expect(SinkTestSupport.contains(text, bodyCanary))
    #expect(SinkTestSupport.contains(text, "X-Trace: \(headerCanary)"))
    #expect(SinkTestSupport.contains(text, "URL: \(url.absoluteString)"))
  }

  @Test func aCleanCachedResponseIsScannedAndHoldsNoCanary() async throws {
    let fixture = try Fixture()
    defer { fixture.tearDown() }
    let canary = SinkTestSupport.canary()
    let url = fixture.serveProfile(body: "redacted", trace: "none")
    let sink = URLCacheSink(cache: fixture.cache, lookingUp: [url])
    let contents = try await SinkTestSupport.capture(sink) {
      _ = try await fixture.client.fetch(url)
    }
    #expect(contents.contains { $0.name == "url-cache:\(url.absoluteString)" })
    #expect(try SinkTestSupport.anyContains(contents, "redacted"))
    #expect(try !SinkTestSupport.anyContains(contents, canary))
  }

  #if canImport(FoundationNetworking)
    @Test func entriesAreFoundWithoutBeingNamedInMemoryAndOnDisk() async throws {
      let fixture = try Fixture()
      defer { fixture.tearDown() }
      let canary = SinkTestSupport.canary()
      let url = fixture.serveProfile(body: canary, trace: "t")
      _ = try await fixture.client.fetch(url)

      let inMemory = try await SinkTestSupport.capture(URLCacheSink(cache: fixture.cache)) {}
      #expect(inMemory.contains { $0.name == "url-cache:\(url.absoluteString)" })
      #expect(try SinkTestSupport.anyContains(inMemory, canary))

      // A second cache on the same directory has an empty memory: only the disk can tell.
      let reopened = StoreSinkTestSupport.makeCache(in: fixture.directory)
      let onDisk = try await SinkTestSupport.capture(URLCacheSink(cache: reopened)) {}
      #expect(onDisk.contains { $0.name.hasPrefix("url-cache:disk/") })
      #expect(onDisk.contains { $0.name.hasPrefix("url-cache:http://") })
      #expect(try SinkTestSupport.anyContains(onDisk, canary))
    }

    @Test func memoryOnlyEntriesAreFoundByReflection() async throws {
      let fixture = try Fixture(storagePolicy: .allowedInMemoryOnly)
      defer { fixture.tearDown() }
      let canary = SinkTestSupport.canary()
      let url = fixture.serveProfile(body: canary, trace: "t")
      let contents = try await SinkTestSupport.capture(URLCacheSink(cache: fixture.cache)) {
        _ = try await fixture.client.fetch(url)
      }
      #expect(!contents.contains { $0.name.hasPrefix("url-cache:disk/") })
      #expect(try SinkTestSupport.anyContains(contents, canary))
    }
  #endif
}

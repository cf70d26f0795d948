import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Source names are the same in every run")
struct StableSourceNameTests {
  /// One run: a fresh temporary tree (random names), an exporter writing `files` (relative paths)
  /// with a canary into it, a file sink over `watched` (relative paths); returns the report.
  private func run(files: [String], watched: [String]) async throws -> LeakReport {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    for directory in Set(watched) {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
    }
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: false,
      sinks: [FileSink(name: "har", urls: watched.map { root.appendingPathComponent($0) })],
      reportDirectory: nil)
    let (_, report) = await CanaryTrap.withScope(title: "stable", configuration: configuration) { trap in
      let token = trap.canary(.token, at: .custom("token"))
      for file in files {
        try Data(#"{"url":"/\#(trap.tracer)/x","token":"\#(token)"}"#.utf8).write(
          to: root.appendingPathComponent(file))
      }
    }
    return report
  }

  @Test("a sink over one temporary directory names its files relative to it, alike in two runs")
  func oneDirectory() async throws {
    let first = try await run(files: ["export/export.har"], watched: ["export"])
    let second = try await run(files: ["export/export.har"], watched: ["export"])
    #expect(first.sources.map(\.name) == ["har:export.har"])
    #expect(second.sources.map(\.name) == first.sources.map(\.name))
    #expect(second.findings.map(\.source) == first.findings.map(\.source))
    // Twin: the names being stable does not hide the leak.
    #expect(first.verdict == .leaky && second.verdict == .leaky)
  }

  @Test("a sink over two directories labels each by its path under their common root, alike in two runs")
  func twoDirectories() async throws {
    let files = ["logs/app.log", "exports/run.har"]
    let first = try await run(files: files, watched: ["logs", "exports"])
    let second = try await run(files: files, watched: ["logs", "exports"])
    #expect(Set(first.sources.map(\.name)) == ["har:logs/app.log", "har:exports/run.har"])
    #expect(second.sources.map(\.name) == first.sources.map(\.name))
    #expect(first.verdict == .leaky && second.verdict == .leaky)
  }

  @Test(
    "a source named by a URL of the run (a URL cache entry) shows the server, tracer and canaries as labels")
  func urlNamedSource() async throws {
    let configuration = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)
    let (_, report) = await CanaryTrap.withScope(title: "stable", configuration: configuration) { trap in
      let email = trap.canary(.email, at: .requestURL(.query("email")))
      let query = email.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? email
      let url = "\(trap.baseURL.absoluteString)/\(trap.tracer)/get-query?email=\(query)"
      await trap.addSink(TextSink(name: "url-cache:\(url)") { "Status: 200\nbody: \(email)\n" })
    }
    #expect(report.sources.map(\.name) == ["url-cache:{server}/{tracer}/get-query?email={canary}"])
    #expect(report.findings.map(\.source) == ["url-cache:{server}/{tracer}/get-query?email={canary}"])
  }

  #if canImport(FoundationNetworking)
    /// One run: the app fetches its profile (holding a canary) from the scope's server through a
    /// real URLSession and stores it in a URL cache on disk in a fresh temporary directory; a
    /// second cache on the same directory (empty memory) is scanned, so only disk files are found.
    private func runURLCache() async throws -> LeakReport {
      let directory = try SinkTestSupport.makeTemporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let configuration = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)
      let (result, report) = await CanaryTrap.withScope(title: "stable-cache", configuration: configuration) {
        trap in
        let token = trap.canary(.token, at: .responseBody(.json("access_token")))
        trap.server.on(.get, "/\(trap.tracer)/profile") { _ in
          .json(["access_token": token]).header("Cache-Control", "max-age=600")
        }
        let cache = StoreSinkTestSupport.makeCache(in: directory)
        let session = StoreSinkTestSupport.makeSession(cache: cache)
        defer { session.invalidateAndCancel() }
        let request = URLRequest(url: trap.baseURL.appendingPathComponent("\(trap.tracer)/profile"))
        let (data, response) = try await session.data(for: request)
        trap.observe(data, response)
        cache.storeCachedResponse(CachedURLResponse(response: response, data: data), for: request)
        await trap.addSink(URLCacheSink(cache: StoreSinkTestSupport.makeCache(in: directory)))
      }
      try result.get()
      return report
    }

    @Test(
      "a URL cache's disk entries are named by the URL they cache, alike in two runs (no time, no temp path)")
    func urlCacheDiskNames() async throws {
      let first = try await runURLCache()
      try await Task.sleep(for: .milliseconds(5))  // a later store time: the file names differ
      let second = try await runURLCache()
      let diskNames = first.sources.map(\.name).filter { $0.hasPrefix("url-cache:disk/") }
      #expect(diskNames == ["url-cache:disk/{server}/{tracer}/profile"], "\(first.sources.map(\.name))")
      #expect(second.sources.map(\.name) == first.sources.map(\.name))
      #expect(second.findings.map(\.source) == first.findings.map(\.source))
      // Twin: the stable names do not hide the leak; the disk entry holds the canary.
      #expect(first.verdict == .leaky && second.verdict == .leaky)
      // The disk entry is an archive: its finding names the member after `!`.
      #expect(
        first.findings.map(\.source).contains { $0.hasPrefix("url-cache:disk/{server}/{tracer}/profile") },
        "\(first.findings.map(\.source))")
    }
  #endif
}

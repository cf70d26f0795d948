import Foundation
import Testing

@testable import CanaryTrap

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
}

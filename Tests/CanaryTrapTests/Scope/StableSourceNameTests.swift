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
}

import Foundation
import Testing

@testable import CanaryTrap

/// The sinks' content handed to the real ``LeakScanner``, as the scope does at the end of a run.
@Suite struct SinkScanningTests {
  private func scanner(for value: String) -> LeakScanner {
    LeakScanner(canaries: [Canary(value: value, location: .custom("test"))])
  }

  @Test func aBase64EncodedCanaryPrintedToStandardOutputIsFoundThere() async throws {
    let canary = SinkTestSupport.canary()
    let contents = try await SinkTestSupport.capture(StandardStreamsSink()) {
      print("Authorization: Basic \(Data("user:\(canary)".utf8).base64EncodedString())")
    }
    let results = contents.map { scanner(for: canary).scan($0) }
    let findings = results.flatMap(\.findings)
    #expect(findings.contains { $0.source == "stdout" && $0.encoding == ScanEncoding.base64.rawValue })
    #expect(!findings.contains { $0.source == "stderr" })
    #expect(results.allSatisfy { $0.source.status == .heard })
  }

  @Test func onlyBytesWrittenDuringTheScopeAreScannedInAFile() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let oldCanary = SinkTestSupport.canary()
    let newCanary = SinkTestSupport.canary()
    let log = root.appendingPathComponent("app.log")
    try Data("earlier run: \(oldCanary)\n".utf8).write(to: log)
    let contents = try await SinkTestSupport.capture(FileSink(["*.log"], relativeTo: root)) {
      let handle = try FileHandle(forWritingTo: log)
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("this run: \(newCanary)\n".utf8))
      try handle.close()
    }
    let scanner = LeakScanner(canaries: [
      Canary(value: oldCanary, location: .custom("old")), Canary(value: newCanary, location: .custom("new")),
    ])
    let (findings, source) = scanner.scan(try #require(contents.first))
    #expect(findings.map(\.canary.value) == [newCanary])
    #expect(source == ScannedSource(name: "file:app.log", bytes: "this run: \(newCanary)\n".utf8.count))
  }

  @Test func aFileThatVanishedIsAFailedSourceNeverAClean() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let log = root.appendingPathComponent("app.log")
    try Data("line\n".utf8).write(to: log)
    let contents = try await SinkTestSupport.capture(FileSink(["app.log"], relativeTo: root)) {
      try FileManager.default.removeItem(at: log)
    }
    let (findings, source) = scanner(for: SinkTestSupport.canary()).scan(try #require(contents.first))
    #expect(findings.isEmpty)
    #expect(source.name == "file:app.log")
    guard case .failed = source.status else {
      Issue.record("a vanished file was reported \(source.status)")
      return
    }
  }
}

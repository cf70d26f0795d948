import Foundation
import Testing

@testable import CanaryTrap

/// `FileSink` reads containers: a gzip log an app rotated during the scope is scanned through its
/// gzip layer, and one cut short fails the source instead of passing as clean.
@Suite struct FileSinkContainerTests {
  @Test(arguments: [false, true])
  func aLogRotatedToGzipDuringTheScopeIsScannedThroughIt(leak: Bool) async throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let sink = FileSink([files.url("logs").path])
    try FileManager.default.createDirectory(at: files.url("logs"), withIntermediateDirectories: true)
    let contents = try await SinkTestSupport.capture(sink) {
      try files.write("logs/app.log", ContainerFixtures.log(leak: leak, line: 2))
      guard try files.run("gzip", ["logs/app.log"]) else { return }
    }
    let results = contents.map { ContainerFixtures.scanner.scan($0) }
    #expect(results.map(\.source.name) == ["file:app.log.gz"])
    #expect(results.allSatisfy { $0.source.status == .heard })
    let raw = results.flatMap(\.findings).filter { $0.encoding == "raw" }
    #expect(raw.map { "\($0.source):\($0.line)" } == (leak ? ["file:app.log.gz!:2"] : []))
  }

  @Test func aTruncatedGzipFailsTheSource() async throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let sink = FileSink([files.url("logs").path])
    try FileManager.default.createDirectory(at: files.url("logs"), withIntermediateDirectories: true)
    let contents = try await SinkTestSupport.capture(sink) {
      try files.write("logs/app.log", String(repeating: ContainerFixtures.log(leak: false), count: 50))
      guard try files.run("gzip", ["logs/app.log"]) else { return }
      try files.truncate("logs/app.log.gz", to: 0.5)
    }
    let results = contents.map { ContainerFixtures.scanner.scan($0) }
    #expect(results.first?.source.status.failureReason?.contains("file:app.log.gz: truncated") == true)
  }
}

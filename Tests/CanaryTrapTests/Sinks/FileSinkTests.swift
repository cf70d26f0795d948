import Foundation
import Testing

@testable import CanaryTrap

/// A logger as an app would write one: appends lines to a file through a file handle.
private final class FileLogger: Sendable {
  let url: URL
  init(url: URL) throws {
    self.url = url
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    if !FileManager.default.fileExists(atPath: url.path) {
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    }
  }
  func log(_ line: String) throws {
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((line + "\n").utf8))
  }
}

@Suite struct FileSinkTests {
  @Test func aLoggerWritingToAFileLeaksTheCanaryIntoTheNewBytes() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let canary = SinkTestSupport.canary()
    let logger = try FileLogger(url: root.appendingPathComponent("logs/app.log"))
    try logger.log("old line from an earlier run")
    let sink = FileSink([root.appendingPathComponent("logs").path])
    let contents = try await SinkTestSupport.capture(sink) {
      try logger.log("GET /me Authorization: Bearer \(canary)")
    }
    #expect(contents.map(\.name) == ["file:app.log"])
    let bytes = try SinkTestSupport.bytes(of: contents[0])
    #expect(bytes == Data("GET /me Authorization: Bearer \(canary)\n".utf8))
    #expect(contents[0].storage == .file(logger.url.standardizedFileURL, offset: 29))
  }

  @Test func aLoggerThatRedactsLeavesNewBytesWithoutTheCanary() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let canary = SinkTestSupport.canary()
    let logger = try FileLogger(url: root.appendingPathComponent("logs/app.log"))
    let sink = FileSink(["logs/*.log"], relativeTo: root)
    let contents = try await SinkTestSupport.capture(sink) {
      try logger.log("GET /me Authorization: <redacted>")
    }
    #expect(contents.map(\.name) == ["file:logs/app.log"])
    #expect(try SinkTestSupport.bytes(of: contents[0]) == Data("GET /me Authorization: <redacted>\n".utf8))
    #expect(try !SinkTestSupport.anyContains(contents, canary))
  }

  @Test func filesCreatedDuringTheScopeMatchADoubleStarGlobWhole() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let canary = SinkTestSupport.canary()
    let sink = FileSink(["exports/**/*.har"], relativeTo: root)
    let contents = try await SinkTestSupport.capture(sink) {
      let nested = root.appendingPathComponent("exports/2026/11")
      try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
      try Data("{\"cookie\":\"sid=\(canary)\"}".utf8).write(to: nested.appendingPathComponent("run.har"))
      try Data("ignored \(canary)".utf8).write(to: nested.appendingPathComponent("run.txt"))
    }
    #expect(contents.map(\.name) == ["file:exports/2026/11/run.har"])
    #expect(try SinkTestSupport.anyContains(contents, "sid=\(canary)"))
  }

  @Test func aTruncatedOrReplacedFileIsReadWhole() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let canary = SinkTestSupport.canary()
    let truncated = root.appendingPathComponent("truncated.log")
    let replaced = root.appendingPathComponent("replaced.log")
    try Data(String(repeating: "old line\n", count: 100).utf8).write(to: truncated)
    try Data(String(repeating: "old line\n", count: 100).utf8).write(to: replaced)
    let sink = FileSink(["*.log"], relativeTo: root)
    let contents = try await SinkTestSupport.capture(sink) {
      let handle = try FileHandle(forWritingTo: truncated)
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: Data("short \(canary)\n".utf8))
      try handle.close()
      // `.atomic` writes a new file and renames it over the old one: a new inode, longer than before
      try Data((String(repeating: "new line\n", count: 200) + canary).utf8).write(
        to: replaced, options: .atomic)
    }
    #expect(contents.map(\.name).sorted() == ["file:replaced.log", "file:truncated.log"])
    for content in contents {
      guard case .file(_, let offset) = content.storage else { Issue.record("not a file"); continue }
      #expect(offset == 0)
      #expect(SinkTestSupport.contains(try SinkTestSupport.bytes(of: content), canary))
    }
  }

  @Test func aFileRewrittenInPlaceIsReadWhole() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let canary = SinkTestSupport.canary()
    let url = root.appendingPathComponent("breadcrumbs.json")
    try Data(#"["launch"]"#.utf8).write(to: url)
    let inode = FileIdentity(path: url.path)?.inode
    let contents = try await SinkTestSupport.capture(FileSink(urls: [url])) {
      // A non-atomic write truncates and rewrites the same inode; the canary lands in the old range.
      try Data(#"["\#(canary)", "launch", "tap"]"#.utf8).write(to: url)
    }
    #expect(FileIdentity(path: url.path)?.inode == inode)
    #expect(contents.first?.storage == .file(url.standardizedFileURL, offset: 0))
    #expect(try SinkTestSupport.anyContains(contents, canary))
  }

  @Test func wholeFilesCoverageReadsWhatWasThereBefore() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let canary = SinkTestSupport.canary()
    let url = root.appendingPathComponent("breadcrumbs.json")
    try Data("[\"\(canary)\"]".utf8).write(to: url)
    let newBytesOnly = try await SinkTestSupport.capture(FileSink(urls: [url])) {}
    let whole = try await SinkTestSupport.capture(FileSink(urls: [url], coverage: .wholeFiles)) {}
    #expect(newBytesOnly.isEmpty)  // unchanged files have nothing new: the sink is silent
    #expect(whole.map(\.name) == ["file:breadcrumbs.json"])
    #expect(try SinkTestSupport.anyContains(whole, canary))
  }

  @Test func aFileThatDisappearedIsReturnedSoTheScanReportsItUnreadable() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let url = root.appendingPathComponent("app.log")
    try Data("line\n".utf8).write(to: url)
    let sink = FileSink([root.path])
    let contents = try await SinkTestSupport.capture(sink) {
      try FileManager.default.removeItem(at: url)
    }
    #expect(contents.map(\.name) == ["file:app.log"])
    #expect(throws: (any Error).self) { try SinkTestSupport.bytes(of: contents[0]) }
  }

  @Test func aListedPathThatNeverExistedIsSilentAndCollectBeforeBeginFails() async throws {
    let root = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let sink = FileSink(["missing.log", "nothing/**/*.log"], relativeTo: root)
    await #expect(throws: SinkError.self) { try await sink.collect() }
    #expect(try await SinkTestSupport.capture(sink) {}.isEmpty)
  }
}

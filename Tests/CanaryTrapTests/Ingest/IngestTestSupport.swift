import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the ingest sink's tests share: real compressors, an uploader posting over URLSession,
/// and reading a sink's window the way a scope does.
enum IngestTestSupport {
  /// `data` run through `tool` with `arguments` (such as `gzip -c` or a Python one-liner); nil,
  /// recorded as not run, when the tool is missing.
  static func compress(_ data: Data, tool: String, _ arguments: [String]) throws -> Data? {
    guard let path = ExternalTools.require(tool, for: "a test compressing with \(tool)") else { return nil }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canarytrap-ingest-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in")
    let output = directory.appendingPathComponent("out")
    try data.write(to: input)
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardInput = try FileHandle(forReadingFrom: input)
    process.standardOutput = try FileHandle(forWritingTo: output)
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return try Data(contentsOf: output)
  }

  /// gzip with the gzip tool.
  static func gzip(_ data: Data) throws -> Data? { try compress(data, tool: "gzip", ["-c"]) }

  /// A zlib stream from Python's zlib.
  static func zlib(_ data: Data) throws -> Data? {
    try compress(
      data, tool: "python3",
      ["-c", "import sys,zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read(), 6))"])
  }

  /// A raw deflate stream (no zlib header) from Python's zlib.
  static func rawDeflate(_ data: Data) throws -> Data? {
    try compress(
      data, tool: "python3",
      [
        "-c",
        "import sys,zlib; c=zlib.compressobj(6, zlib.DEFLATED, -15); "
          + "sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())",
      ])
  }

  /// Posts `body` to `path` on `sink` with `headers` through a real URLSession; returns the response.
  @discardableResult
  static func upload(
    _ body: Data, to path: String, on sink: IngestSink, method: String = "POST",
    headers: [String: String] = [:], session: URLSession
  ) async throws -> HTTPURLResponse {
    var request = URLRequest(url: URL(string: sink.url.absoluteString + path)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (_, response) = try await session.upload(for: request, from: body)
    return try #require(response as? HTTPURLResponse)
  }

  /// A started sink that settles 100 ms after the last upload. It waits up to 30 s for a first
  /// one, so an upload delayed by a busy machine (the whole suite runs in parallel) is still
  /// collected; a test of a sink that receives nothing sets its own short timeout.
  static func startedSink(
    limit: IngestSink.Limit = .default, answers: [IngestAnswer] = [.ok],
    settle: IngestSink.Settle = IngestSink.Settle(quiet: .milliseconds(100), timeout: .seconds(30))
  ) throws -> IngestSink {
    let sink = IngestSink(limit: limit, settle: settle, answers: answers)
    try sink.start()
    return sink
  }

  /// Opens a window, runs `body`, and returns what the window collected and why it is incomplete.
  static func read(
    _ sink: IngestSink, during body: () async throws -> Void
  ) async throws -> (contents: [SinkContent], problem: String?) {
    let window = SinkWindow.next()
    try await sink.begin(window)
    try await body()
    let contents = try await sink.collect(window)
    let problem = sink.droppedReason(in: window)
    await sink.end(window)
    return (contents, problem)
  }

  /// The content named `name`, as text.
  static func text(_ contents: [SinkContent], _ name: String) -> String? {
    guard let content = contents.first(where: { $0.name == name }), case .bytes(let data) = content.storage
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// A fresh canary.
  static func canary() -> String { CanaryGenerator().makeValue(.token) }
}

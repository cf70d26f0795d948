import Foundation
import Testing

@testable import CanaryTrap

/// Helpers the sink tests share: fresh canaries, unique temp dirs, and a plain byte search.
enum SinkTestSupport {
  /// A fresh token canary value, unique to the calling test.
  static func canary() -> String {
    CanaryGenerator().makeValue(.token)
  }

  /// A new empty directory under the system temp dir, unique to the calling test.
  static func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("canarytrap-sinks-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The bytes a content stands for: its data, or its file from the offset on.
  static func bytes(of content: SinkContent) throws -> Data {
    switch content.storage {
    case .bytes(let data):
      return data
    case .file(let url, let offset):
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      try handle.seek(toOffset: offset)
      return try handle.readToEnd() ?? Data()
    }
  }

  /// Whether `needle` occurs in `haystack`, byte for byte.
  static func contains(_ haystack: Data, _ needle: String) -> Bool {
    haystack.range(of: Data(needle.utf8)) != nil
  }

  /// Whether any of `contents` holds `needle`.
  static func anyContains(_ contents: [SinkContent], _ needle: String) throws -> Bool {
    try contents.contains { contains(try bytes(of: $0), needle) }
  }

  /// Runs one sink through the scope's life cycle around `body` and returns what it collected.
  static func capture(
    _ sink: some LeakSink, during body: () async throws -> Void
  ) async throws -> [SinkContent] {
    try await sink.begin()
    do {
      try await body()
      let contents = try await sink.collect()
      await sink.end()
      return contents
    } catch {
      await sink.end()
      throw error
    }
  }
}

import Foundation

/// Bytes a sink captured, held in memory or as a region of a file to be streamed.
public struct SinkContent: Sendable, Hashable {
  /// The name findings use: the sink's name, or the sink's name and a file path.
  public var name: String
  /// Where the bytes are.
  package var storage: Storage

  /// Where a sink's bytes are.
  package enum Storage: Sendable, Hashable {
    /// Bytes held in memory.
    case bytes(Data)
    /// The bytes of a file from `offset` to its end, read in chunks when scanned.
    case file(URL, offset: UInt64)
  }

  /// Content held in memory.
  public static func bytes(_ data: Data, name: String) -> SinkContent {
    SinkContent(name: name, storage: .bytes(data))
  }

  /// Content of a file from `offset` on.
  public static func file(_ url: URL, from offset: UInt64 = 0, name: String) -> SinkContent {
    SinkContent(name: name, storage: .file(url, offset: offset))
  }

  /// Creates content.
  package init(name: String, storage: Storage) {
    self.name = name
    self.storage = storage
  }
}

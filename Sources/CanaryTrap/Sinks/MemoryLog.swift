import Foundation

/// A thread-safe log held in memory: hand it to the app's logger, and the scope scans every byte.
///
/// It keeps everything written to it (it lives for one test), as lines and as bytes.
public final class MemoryLog: LeakSink, LogSink {
  /// The name findings use, `memory-log` unless told otherwise.
  public let name: String
  private let storage = Locked(Storage())

  private struct Storage {
    var entries: [String] = []
    var bytes = Data()
  }

  /// Creates an empty log whose findings are named `name`.
  public init(name: String = "memory-log") {
    self.name = name
  }

  /// Records one line; the stored bytes get the line and a newline.
  public func write(_ line: String) {
    storage.withLock {
      $0.entries.append(line)
      $0.bytes.append(contentsOf: Array(line.utf8))
      $0.bytes.append(UInt8(ascii: "\n"))
    }
  }

  /// Records raw bytes exactly as given (no newline is added).
  public func write(bytes: Data) {
    storage.withLock {
      $0.entries.append(String(decoding: bytes, as: UTF8.self))
      $0.bytes.append(bytes)
    }
  }

  /// Every entry written so far, in order (raw bytes decoded as UTF-8, invalid bytes replaced).
  public var lines: [String] {
    storage.withLock { $0.entries }
  }

  /// Every byte written so far, in order.
  public var data: Data {
    storage.withLock { $0.bytes }
  }

  /// Removes everything written so far.
  public func clear() {
    storage.withLock { $0 = Storage() }
  }

  /// A closure that writes each string it gets as a line, for loggers that take `(String) -> Void`.
  public var asClosure: @Sendable (String) -> Void {
    { [self] line in self.write(line) }
  }

  /// Everything written, as one content named ``name`` (empty if nothing was written).
  public func collect() async throws -> [SinkContent] {
    [.bytes(data, name: name)]
  }
}

import Foundation

/// A thread-safe log held in memory: hand it to the app's logger, and the scope scans every byte.
///
/// It keeps everything written to it, as lines and as bytes. Each scope reading it sees only what
/// was written during its own window, so one log in a suite's configuration can serve tests
/// running in parallel. A log the scope created with ``CanaryTrap/memoryLog(_:)`` belongs to that
/// run alone, so any byte written to it proves the run was heard (``HearingRule/anyByteDuringScope``).
public final class MemoryLog: LeakSink, LogSink, ImmediatelyBeginningSink {
  /// The name findings use, `memory-log` unless told otherwise.
  public let name: String
  private let storage = Locked(Storage())

  private struct Storage {
    var entries: [String] = []
    var bytes = Data()
    /// Where each open window starts in `bytes`.
    var windows: [SinkWindow: Int] = [:]
  }

  /// Creates an empty log whose findings are named `name`.
  public init(name: String = "memory-log") {
    self.name = name
  }

  /// Only the run under test writes to a memory log: any byte written during the scope proves it heard the run.
  public var hearingRule: HearingRule { .anyByteDuringScope }

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

  /// Removes everything written so far; open windows start again at the (now empty) end.
  public func clear() {
    storage.withLock { storage in
      let windows = storage.windows
      storage = Storage()
      storage.windows = windows.mapValues { _ in 0 }
    }
  }

  /// A closure that writes each string it gets as a line, for loggers that take `(String) -> Void`.
  public var asClosure: @Sendable (String) -> Void {
    { [self] line in self.write(line) }
  }

  /// Everything written, as one content named ``name`` (empty if nothing was written).
  public func collect() async throws -> [SinkContent] {
    [.bytes(data, name: name)]
  }

  /// Opens `window` at the current end of the log.
  public func begin(_ window: SinkWindow) async throws {
    try beginImmediately(window)
  }

  func beginImmediately(_ window: SinkWindow) throws {
    try storage.withLock { storage in
      guard storage.windows[window] == nil else { throw SinkError.alreadyBegun(name) }
      storage.windows[window] = storage.bytes.count
    }
  }

  /// What was written since `window` opened, as one content named ``name``.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] {
    let bytes = try storage.withLock { storage -> Data in
      guard let start = storage.windows[window] else { throw SinkError.notBegun(name) }
      return storage.bytes.subdata(in: min(start, storage.bytes.count)..<storage.bytes.count)
    }
    return [.bytes(bytes, name: name)]
  }

  /// Closes `window`.
  public func end(_ window: SinkWindow) async {
    _ = storage.withLock { $0.windows.removeValue(forKey: window) }
  }
}

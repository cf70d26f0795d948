import CanaryTrapPrimitives
import Foundation

/// A thread-safe log held in memory: hand it to the app's logger, and the scope scans every byte.
///
/// It keeps what is written to it, as lines and as bytes, up to its `limit`; a write past the
/// limit is dropped whole and counted (`droppedBytes`), and a scope whose window lost a write
/// cannot be clean for this log (see <doc:Sinks>). Each scope reading it sees only what was
/// written during its own window, so one log in a suite's configuration can serve tests running
/// in parallel. A log the scope created with ``CanaryTrap/memoryLog(_:limit:)`` belongs to that
/// run alone, so any byte written to it proves the run was heard (``HearingRule/anyByteDuringScope``).
public final class MemoryLog: LeakSink, LogSink, ImmediatelyBeginningSink, DroppingSink {
  /// The name findings use, `memory-log` unless told otherwise.
  public let name: String
  /// How much the log keeps before it drops what is written.
  package let limit: Limit
  private let storage = Locked(Storage())

  /// How much a memory log keeps: a write that would pass either bound is dropped and counted.
  public struct Limit: Sendable, Hashable {
    /// The most bytes kept (64 MiB by default).
    package var maxBytes: Int
    /// The most writes (lines or byte chunks) kept (1,000,000 by default).
    package var maxLines: Int

    /// Creates a limit.
    public init(maxBytes: Int = 64 << 20, maxLines: Int = 1_000_000) {
      self.maxBytes = maxBytes
      self.maxLines = maxLines
    }

    /// 64 MiB and 1,000,000 writes.
    public static let `default` = Limit()

    /// `N bytes or L lines`, as messages name it.
    var description: String { "\(maxBytes) bytes or \(maxLines) lines" }
  }

  private struct Storage {
    var entries: [String] = []
    var bytes = Data()
    /// Bytes and writes dropped past the limit since the log was created (``clear()`` keeps them).
    var dropped = Dropped()
    /// Where each open window starts in `bytes`, and what had been dropped when it opened.
    var windows: [SinkWindow: (start: Int, dropped: Dropped)] = [:]
  }

  /// What was dropped past the limit.
  private struct Dropped {
    var bytes = 0
    var writes = 0
  }

  /// Creates an empty log whose findings are named `name`, keeping at most `limit`.
  public init(name: String = "memory-log", limit: Limit = .default) {
    self.name = name
    self.limit = limit
  }

  /// Only the run under test writes to a memory log: any byte written during the scope proves it heard the run.
  public var hearingRule: HearingRule { .anyByteDuringScope }

  /// Records one line; the stored bytes get the line and a newline. Past the limit it is dropped and counted.
  public func write(_ line: String) {
    var bytes = Data(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    append(entry: line, bytes: bytes)
  }

  /// Records raw bytes exactly as given (no newline is added). Past the limit they are dropped and counted.
  public func write(bytes: Data) {
    append(entry: String(decoding: bytes, as: UTF8.self), bytes: bytes)
  }

  /// Keeps one write whole, or drops it whole when it would pass the limit.
  private func append(entry: String, bytes: Data) {
    let limit = self.limit
    storage.withLock { storage in
      guard storage.entries.count < limit.maxLines, storage.bytes.count + bytes.count <= limit.maxBytes else {
        storage.dropped.bytes += bytes.count
        storage.dropped.writes += 1
        return
      }
      storage.entries.append(entry)
      storage.bytes.append(bytes)
    }
  }

  /// Every entry kept so far, in order (raw bytes decoded as UTF-8, invalid bytes replaced).
  package var lines: [String] {
    storage.withLock { $0.entries }
  }

  /// Every byte kept so far, in order.
  public var data: Data {
    storage.withLock { $0.bytes }
  }

  /// How many bytes were dropped past the limit since the log was created.
  package var droppedBytes: Int {
    storage.withLock { $0.dropped.bytes }
  }

  /// How many writes were dropped past the limit since the log was created.
  package var droppedWrites: Int {
    storage.withLock { $0.dropped.writes }
  }

  /// Removes everything kept so far; open windows start again at the (now empty) end. The
  /// dropped counters are kept, so a window still knows what it lost.
  package func clear() {
    storage.withLock { storage in
      storage.entries = []
      storage.bytes = Data()
      storage.windows = storage.windows.mapValues { (start: 0, dropped: $0.dropped) }
    }
  }

  /// A closure that writes each string it gets as a line, for loggers that take `(String) -> Void`.
  package var asClosure: @Sendable (String) -> Void {
    { [self] line in self.write(line) }
  }

  /// Everything kept, as one content named ``name`` (empty if nothing was written).
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
      storage.windows[window] = (start: storage.bytes.count, dropped: storage.dropped)
    }
  }

  /// What was kept since `window` opened, as one content named ``name``.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] {
    let bytes = try storage.withLock { storage -> Data in
      guard let opened = storage.windows[window] else { throw SinkError.notBegun(name) }
      return storage.bytes.subdata(in: min(opened.start, storage.bytes.count)..<storage.bytes.count)
    }
    return [.bytes(bytes, name: name)]
  }

  /// Why `window` is incomplete: what was dropped past the limit while it was open, or nil.
  func droppedReason(in window: SinkWindow) -> String? {
    let lost = storage.withLock { storage -> Dropped? in
      guard let opened = storage.windows[window] else { return nil }
      return Dropped(
        bytes: storage.dropped.bytes - opened.dropped.bytes,
        writes: storage.dropped.writes - opened.dropped.writes)
    }
    guard let lost, lost.writes > 0 else { return nil }
    return
      "memory log \(name) dropped \(lost.bytes) bytes (\(lost.writes == 1 ? "1 write" : "\(lost.writes) writes"))"
      + " past its limit of"
      + " \(limit.description), so they were not scanned: give it a larger MemoryLog.Limit"
  }

  /// Closes `window`.
  public func end(_ window: SinkWindow) async {
    _ = storage.withLock { $0.windows.removeValue(forKey: window) }
  }
}

/// A sink that keeps at most so much and can say, per window, what it dropped past its limit; a
/// scope marks such a sink failed for that window, so the run cannot be clean (see <doc:Sinks>).
protocol DroppingSink: LeakSink {
  /// Why `window` is incomplete (what was dropped past the limit), or nil when it kept everything;
  /// asked after ``LeakSink/collect(_:)`` and before ``LeakSink/end(_:)``.
  func droppedReason(in window: SinkWindow) -> String?
}

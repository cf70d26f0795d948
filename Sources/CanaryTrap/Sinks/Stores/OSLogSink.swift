import CanaryTrapPrimitives
import Foundation

#if canImport(OSLog)
  import OSLog
#endif

/// Scans what the current process logged through `os_log`/`Logger` since ``begin()``, read back
/// with `OSLogStore(scope: .currentProcessIdentifier)` on Apple platforms.
///
/// Where there is no unified logging (Linux), ``isAvailable`` is false and ``collect()`` throws
/// a clear "unavailable on this platform" error, so the scope reports the sink as failed rather
/// than silently clean. Values logged as private (the default for dynamic strings) are redacted
/// by the system before the store returns them, so only what the log really exposes is scanned.
public final class OSLogSink: LeakSink, ImmediatelyBeginningSink {
  /// The name findings use, `os-log` unless told otherwise.
  public let name: String
  /// Only entries of this subsystem are scanned, if given.
  package let subsystem: String?
  private let starts = Locked<[SinkWindow: Date]>([:])

  /// Whether this platform can read the process's own log entries.
  public static var isAvailable: Bool {
    #if canImport(OSLog)
      if #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) { return true }
    #endif
    return false
  }

  /// Creates a sink over the process's log, optionally limited to one subsystem.
  public init(name: String = "os-log", subsystem: String? = nil) {
    self.name = name
    self.subsystem = subsystem
  }

  /// Remembers when the scope began; entries from then on are scanned.
  public func begin() async throws { try beginImmediately(.standalone) }

  /// Each entry since ``begin()`` as a line `subsystem [category] message`.
  public func collect() async throws -> [SinkContent] { try await collect(.standalone) }

  /// Forgets when the scope began.
  public func end() async { await end(.standalone) }

  /// Remembers when `window` began; entries from then on are scanned.
  public func begin(_ window: SinkWindow) async throws { try beginImmediately(window) }

  func beginImmediately(_ window: SinkWindow) throws {
    starts.withLock { $0[window] = Date() }
  }

  /// Forgets when `window` began.
  public func end(_ window: SinkWindow) async {
    _ = starts.withLock { $0.removeValue(forKey: window) }
  }

  /// Each entry since `window` began as a line `subsystem [category] message`.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] {
    guard let since = starts.withLock({ $0[window] }) else { throw SinkError.notBegun(name) }
    #if canImport(OSLog)
      if #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) {
        return [.bytes(Data(try await readEntriesOnceStored(since: since).utf8), name: name)]
      }
    #endif
    _ = since
    throw SinkError.unavailable(name, "reading os_log entries (OSLogStore)")
  }

  #if canImport(OSLog)
    /// The subsystem of the marker ``collect()`` logs to learn that the store has caught up.
    static let markerSubsystem = "org.canarytrap.oslog-sink"
    /// How long ``collect()`` waits for the store to return what was logged before it.
    static let storeDeadline: Duration = .seconds(3)

    /// Reads the entries since `since` once the store holds everything logged before this call.
    ///
    /// Entries reach `OSLogStore` a moment after they are logged, so a read right after the app
    /// logged could miss them and pass as clean. This logs a unique marker and reads again (every
    /// 50 ms) until the marker is back; past ``storeDeadline`` the sink fails instead.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    private func readEntriesOnceStored(since: Date) async throws -> String {
      let marker = "canarytrap-store-marker-\(UUID().uuidString)"
      Logger(subsystem: Self.markerSubsystem, category: "flush").log("\(marker, privacy: .public)")
      let clock = ContinuousClock()
      let deadline = clock.now + Self.storeDeadline
      while true {
        let read = try readEntries(since: since, marker: marker)
        if read.sawMarker { return read.text }
        guard clock.now < deadline else {
          throw SinkError(
            sink: name,
            reason:
              "OSLogStore had not returned the entries logged before the scan after \(Self.storeDeadline), "
              + "so they could not all be scanned")
        }
        try await Task.sleep(for: .milliseconds(50))
      }
    }

    /// The entries since `since` as lines, without the marker, and whether the marker was among them.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    private func readEntries(since: Date, marker: String) throws -> (text: String, sawMarker: Bool) {
      do {
        let store = try OSLogStore(scope: .currentProcessIdentifier)
        var text = ""
        var sawMarker = false
        for entry in try store.getEntries(at: store.position(date: since)) where entry.date >= since {
          guard let log = entry as? OSLogEntryLog else { continue }
          if log.subsystem == Self.markerSubsystem {
            if log.composedMessage == marker { sawMarker = true }
            continue
          }
          if let subsystem, log.subsystem != subsystem { continue }
          text += "\(log.subsystem) [\(log.category)] \(log.composedMessage)\n"
        }
        return (text, sawMarker)
      } catch {
        throw SinkError(sink: name, reason: "OSLogStore could not be read: \(error)")
      }
    }
  #endif
}

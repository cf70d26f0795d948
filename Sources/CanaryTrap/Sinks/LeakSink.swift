import CanaryTrapPrimitives
import Foundation

/// A place an app writes to, which a scope reads at the end of a run and hands to the scanner.
///
/// Conform your own types to scan anything your app produces: an exporter's output, a crash
/// reporter's breadcrumbs, an analytics queue. One instance may serve many scopes at once (a
/// suite's configuration is shared by tests running in parallel): each scope opens its own
/// ``SinkWindow`` with ``begin(_:)``, reads it with ``collect(_:)`` and closes it with ``end(_:)``.
/// A sink that implements only ``begin()``, ``collect()`` and ``end()`` serves one scope at a time.
/// See <doc:Sinks> for when a sink is taken to have heard the run (``hearingRule``).
public protocol LeakSink: Sendable {
  /// The name findings use, such as `memory-log` or `stderr`.
  var name: String { get }

  /// What proves that this sink heard the run; ``HearingRule/tracerOrCanary`` unless the sink says otherwise.
  var hearingRule: HearingRule { get }

  /// Starts capturing for a single scope; the default does nothing.
  func begin() async throws

  /// What the sink captured since ``begin()``.
  func collect() async throws -> [SinkContent]

  /// Releases whatever ``begin()`` acquired; called once after ``collect()``, even if it threw.
  func end() async

  /// Starts capturing for `window`; the default calls ``begin()``.
  func begin(_ window: SinkWindow) async throws

  /// What the sink captured during `window`; the default calls ``collect()``.
  func collect(_ window: SinkWindow) async throws -> [SinkContent]

  /// Closes `window`; called once after ``collect(_:)``, even if it threw. The default calls ``end()``.
  func end(_ window: SinkWindow) async
}

extension LeakSink {
  /// Only this run's tracer or a canary proves a sink heard the run, unless the sink says otherwise.
  public var hearingRule: HearingRule { .tracerOrCanary }

  /// Does nothing: most sinks need no set-up.
  public func begin() async throws {}

  /// Does nothing: most sinks hold nothing to release.
  public func end() async {}

  /// Calls ``begin()``: a sink without windows serves one scope at a time.
  public func begin(_ window: SinkWindow) async throws { try await begin() }

  /// Calls ``collect()``.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] { try await collect() }

  /// Calls ``end()``.
  public func end(_ window: SinkWindow) async { await end() }
}

/// One scope's view of a sink: what the sink captured between the scope's ``LeakSink/begin(_:)``
/// and its ``LeakSink/collect(_:)``, kept apart from every other scope reading the same sink.
public struct SinkWindow: Sendable, Hashable, CustomStringConvertible {
  /// A number unique in the process.
  public let id: UInt64

  /// The window ``LeakSink/begin()``, ``LeakSink/collect()`` and ``LeakSink/end()`` use.
  package static let standalone = SinkWindow(id: 0)

  private static let counter = Locked<UInt64>(0)

  /// A window no one else has: the scope opens one per sink it reads.
  public static func next() -> SinkWindow {
    SinkWindow(
      id: counter.withLock { count in
        count += 1
        return count
      })
  }

  private init(id: UInt64) { self.id = id }

  /// `window N`.
  public var description: String { "window \(id)" }
}

/// What proves that a sink heard the run under test, so that a sink which recorded nothing of it
/// is reported silent instead of passing as clean (see <doc:Sinks>).
public enum HearingRule: Sendable, Hashable {
  /// Only the run under test writes to the sink during the scope (a ``MemoryLog`` handed to the
  /// app's logger, a ``TextSink`` over an object the test created): any byte it captured during
  /// the scope proves it heard the run. When scopes running at the same time share one instance,
  /// the scope falls back to ``tracerOrCanary``.
  case anyByteDuringScope
  /// Other code may write to the sink too (standard streams, files, stores): only this run's
  /// ``CanaryTrap/tracer`` or one of its canaries proves it heard the run.
  case tracerOrCanary
}

/// A sink that can open a window without suspending, so that the synchronous
/// `CanaryTrap.addSink(_:)` has it fully begun before it returns.
protocol ImmediatelyBeginningSink: LeakSink {
  /// Opens `window` now.
  func beginImmediately(_ window: SinkWindow) throws
}

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

import CanaryTrapPrimitives
import Foundation

/// Scans files an app writes: paths, directories (walked recursively) and glob patterns such as
/// `logs/**/*.log` — app logs, exported HAR/cURL files, crash-reporter breadcrumbs, temp dirs.
///
/// By default only what was written during the scope is scanned: files created since ``begin()``
/// whole, and the bytes beyond each existing file's size at ``begin()``; a file truncated or
/// replaced or rewritten in place since then is scanned whole (a rewrite is noticed by hashing up
/// to 4 KiB at each end of the old content). Findings are named after the sink and the file's path
/// relative to `base`, or, without one, to the watched directory (the deepest directory holding
/// every watched path), such as `file:app.log` or `har:export.har`: names hold no temporary
/// directory, so a report reads the same in every run.
///
/// A file that existed during the scope but is gone when it ends, or cannot be read, is still
/// returned as content: the scanner then reports that source as failed, naming the file, while
/// the other files are scanned normally. A listed path that never existed is simply absent.
public final class FileSink: LeakSink, ImmediatelyBeginningSink {
  /// How much of each file to scan.
  public enum Coverage: Sendable, Hashable {
    /// Only bytes written between ``FileSink/begin()`` and ``FileSink/collect()``.
    case writtenDuringScope
    /// Every byte of every covered file.
    case wholeFiles
  }

  /// The prefix of every finding's name, `file` unless told otherwise.
  public let name: String
  /// How much of each file is scanned.
  package let coverage: Coverage
  private let targets: [FileTarget]
  private let base: String?
  /// What each open window saw at its beginning.
  private let snapshots = Locked<[SinkWindow: [String: Snapshot]]>([:])

  /// A covered file as it was at ``begin()``.
  private struct Snapshot: Sendable {
    var identity: FileIdentity
    var fingerprint: FilePrefixFingerprint?
    var displayName: String
  }

  /// Watches `paths`: files, directories or glob patterns, relative ones resolved against `base`
  /// (the current directory by default).
  public init(
    name: String = "file", _ paths: [String], relativeTo base: URL? = nil,
    coverage: Coverage = .writtenDuringScope
  ) {
    self.name = name
    self.coverage = coverage
    self.base = base?.standardizedFileURL.path
    self.targets = paths.map { FileTarget($0, base: base?.standardizedFileURL.path) }
  }

  /// Watches the files or directories at `urls`.
  public convenience init(
    name: String = "file", urls: [URL], relativeTo base: URL? = nil, coverage: Coverage = .writtenDuringScope
  ) {
    self.init(name: name, urls.map { $0.standardizedFileURL.path }, relativeTo: base, coverage: coverage)
  }

  /// Records the size and identity of every covered file.
  public func begin() async throws { try beginImmediately(.standalone) }

  /// The regions of covered files written since ``begin()`` (or whole files), one content each.
  public func collect() async throws -> [SinkContent] { try collectNow(.standalone) }

  /// Forgets the snapshot so the sink can begin again.
  public func end() async { await end(.standalone) }

  /// Records the size and identity of every covered file for `window`; returns once recorded.
  public func begin(_ window: SinkWindow) async throws { try beginImmediately(window) }

  /// The regions of covered files written during `window` (or whole files), one content each.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] { try collectNow(window) }

  /// Forgets `window`'s snapshot.
  public func end(_ window: SinkWindow) async {
    _ = snapshots.withLock { $0.removeValue(forKey: window) }
  }

  func beginImmediately(_ window: SinkWindow) throws {
    let current = identities(of: resolveAll())
    try snapshots.withLock { snapshots in
      guard snapshots[window] == nil else { throw SinkError.alreadyBegun(name) }
      snapshots[window] = current
    }
  }

  private func collectNow(_ window: SinkWindow) throws -> [SinkContent] {
    guard let before = snapshots.withLock({ $0[window] }) else { throw SinkError.notBegun(name) }
    var contents: [SinkContent] = []
    var seen: Set<String> = []
    for match in resolveAll() {
      seen.insert(match.path)
      let contentName = "\(name):\(match.displayName)"
      let url = URL(fileURLWithPath: match.path)
      guard let now = FileIdentity(path: match.path) else {
        contents.append(.file(url, from: 0, name: contentName))  // vanished: the scan reports it
        continue
      }
      let offset = startOffset(path: match.path, now: now, before: before[match.path])
      if coverage == .writtenDuringScope && offset == now.size && before[match.path] != nil { continue }
      contents.append(.file(url, from: offset, name: contentName))
    }
    for (path, old) in before.sorted(by: { $0.key < $1.key }) where !seen.contains(path) {
      if FileIdentity(path: path) == nil {  // existed at begin, gone now: the scan reports it
        contents.append(.file(URL(fileURLWithPath: path), from: 0, name: "\(name):\(old.displayName)"))
      }
    }
    return contents
  }

  /// Where the scope's bytes start: past the old size if the file only grew, else at 0.
  private func startOffset(path: String, now: FileIdentity, before: Snapshot?) -> UInt64 {
    guard coverage == .writtenDuringScope, let before else { return 0 }
    let old = before.identity
    let sameFile = old.device == now.device && old.inode == now.inode
    guard sameFile, now.size >= old.size else { return 0 }
    let unchanged = before.fingerprint == FilePrefixFingerprint(path: path, length: old.size)
    return unchanged ? old.size : 0
  }

  private func resolveAll() -> [FileTarget.Match] {
    var unique: [String: FileTarget.Match] = [:]
    var order: [String] = []
    let namingRoot = FileTarget.namingRoot(of: targets.map(\.root), base: base)
    for target in targets {
      for match in target.resolve(namingRoot: namingRoot) where unique[match.path] == nil {
        unique[match.path] = match
        order.append(match.path)
      }
    }
    return order.map { unique[$0]! }
  }

  private func identities(of matches: [FileTarget.Match]) -> [String: Snapshot] {
    var result: [String: Snapshot] = [:]
    for match in matches {
      if let identity = FileIdentity(path: match.path) {
        result[match.path] = Snapshot(
          identity: identity, fingerprint: FilePrefixFingerprint(path: match.path, length: identity.size),
          displayName: match.displayName)
      }
    }
    return result
  }
}

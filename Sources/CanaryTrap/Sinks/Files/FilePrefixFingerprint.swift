import Foundation

/// A hash of the bytes a file held at ``FileSink/begin()`` near its start and its end, so a file
/// rewritten in place (same inode, at least as long) is noticed and read whole rather than only
/// past its old size.
struct FilePrefixFingerprint: Sendable, Hashable {
  /// How many bytes are hashed at each end of the old region.
  static let windowSize: UInt64 = 4096

  let value: Int

  /// The fingerprint of the first `length` bytes of the file at `path`, or nil if unreadable.
  init?(path: String, length: UInt64) {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var hasher = Hasher()
    hasher.combine(length)
    do {
      let head = min(length, Self.windowSize)
      hasher.combine(try handle.read(upToCount: Int(head)) ?? Data())
      if length > head {
        let tailStart = max(head, length - Self.windowSize)
        try handle.seek(toOffset: tailStart)
        hasher.combine(try handle.read(upToCount: Int(length - tailStart)) ?? Data())
      }
    } catch {
      return nil
    }
    value = hasher.finalize()
  }
}

import CanaryTrap
import Foundation

/// Reads a document a command was given (a JSON report, an OpenAPI or HAR file) the way
/// manifests are read: at most a size, a FIFO waiting a bounded time for its writer, a directory
/// refused, so no argument can hang the command or exhaust its memory.
enum InputDocument {
  /// The largest document read: 256 MiB.
  static let maximumSize = 256 << 20

  /// The bytes at `path`, at most `maximumSize` of them (a regular file over it is refused before
  /// it is read), or a one-line error naming it (`what` says what it should have been, or why
  /// the limit).
  static func read(_ path: String, what: String, maximumSize: Int = maximumSize) throws -> Data {
    do {
      return Data(
        try ManifestFile.read(
          path: Array(path.utf8), name: path, maximumSize: maximumSize, what: what))
    } catch ManifestError.unreadable(_, let reason) {
      throw ScanUsageError(description: "cannot read \(path): \(reason)")
    }
  }
}

import CanaryTrap
import Foundation

/// Reads a document a command was given (a JSON report, an OpenAPI or HAR file) the way
/// manifests are read: at most a size, a FIFO waiting a bounded time for its writer, a directory
/// refused, so no argument can hang the command or exhaust its memory.
enum InputDocument {
  /// The largest document read: 256 MiB.
  static let maximumSize = 256 << 20

  /// The bytes at `path`, or a one-line error naming it (`what` says what it should have been).
  static func read(_ path: String, what: String) throws -> Data {
    do {
      return Data(
        try ManifestFile.read(
          path: Array(path.utf8), name: path, maximumSize: maximumSize, what: "it is not \(what)"))
    } catch ManifestError.unreadable(_, let reason) {
      throw ScanUsageError(description: "cannot read \(path): \(reason)")
    }
  }
}

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a regular file was at one instant: which file (device and inode) and how long.
struct FileIdentity: Sendable, Hashable {
  var device: UInt64
  var inode: UInt64
  var size: UInt64

  /// The identity of the regular file at `path` (symbolic links followed), or nil if there is no
  /// regular file there.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
    size = UInt64(max(info.st_size, 0))
  }

  /// Whether `path` is a directory (symbolic links followed).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new file beside an output, written in full and synced before ``OutputFile`` moves it into
/// place, so the output's path never shows a partial file.
final class OutputTemporaryFile {
  let path: ScanPath
  let fd: Int32
  private var isOpen = true
  private let failure: (String) -> any Error

  /// Creates `.NAME.canary-PID-N.tmp` beside `target` (mode 0666 less the umask, as `>` would);
  /// `failure` words an error.
  init(beside target: ScanPath, failure: @escaping (String) -> any Error) throws {
    self.failure = failure
    let slash = target.bytes.lastIndex(of: UInt8(ascii: "/"))
    let directory = slash.map { Array(target.bytes[...$0]) } ?? []
    let base = slash.map { Array(target.bytes[($0 + 1)...]) } ?? target.bytes
    var attempt = 0
    while true {
      let suffix = Array(".canary-\(getpid())-\(attempt).tmp".utf8)
      let candidate = ScanPath(bytes: directory + [UInt8(ascii: ".")] + base + suffix)
      let fd = candidate.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
      if fd >= 0 {
        path = candidate
        self.fd = fd
        return
      }
      guard errno == EEXIST, attempt < 100 else { throw failure(ScanPathError.current().description) }
      attempt += 1
    }
  }

  /// Gives the file the mode of `kept`, and as root its owner and group too (a user who is not
  /// root keeps the group when it may).
  func keepAttributes(of kept: stat) throws {
    if geteuid() == 0 {
      guard fchown(fd, kept.st_uid, kept.st_gid) == 0 else {
        throw failure(ScanPathError.current().description)
      }
    } else {
      _ = fchown(fd, uid_t.max, kept.st_gid)
    }
    guard fchmod(fd, kept.st_mode & 0o7777) == 0 else { throw failure(ScanPathError.current().description) }
  }

  /// Syncs and closes the file; throws when either fails (a full disk can surface only here).
  func finish() throws {
    guard fsync(fd) == 0 else { throw failure(ScanPathError.current().description) }
    isOpen = false
    guard close(fd) == 0 else { throw failure(ScanPathError.current().description) }
  }

  /// Removes the file, closing its descriptor if still open.
  func discard() {
    if isOpen { close(fd) }
    isOpen = false
    _ = path.withCString { unlink($0) }
  }
}

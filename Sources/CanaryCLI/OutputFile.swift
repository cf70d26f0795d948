import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command writes because the user named it (`scan --output`, `baseline --output`,
/// `manifest --output`, `report merge --output`, `serve --record`, `init`), checked before any
/// work so that nothing the user owns is destroyed and nothing hangs. Every such writer opens it
/// here:
///
/// - a file that is also an input of the command (by device and inode: through a symbolic link,
///   a hard link or another spelling) is refused, as are a directory, a socket and a block device;
/// - an existing regular file is written only if the shell's `>` could write it (root may, others
///   need write permission), and only with `--force`; it is replaced once the content is complete,
///   keeping its mode (and, as root, its owner), or written in place as `>` does when its directory
///   cannot take a new file or its owner could not be kept;
/// - a character device or a FIFO (`/dev/null`, `/dev/full`, a pipe to another process) is opened
///   at once and written in place, never replaced; a FIFO waits a bounded time for its reader;
/// - a new file appears only once complete; a missing directory is named.
final class OutputFile {
  /// How the content reaches the path.
  enum Destination {
    /// No file there: a new one is made.
    case create
    /// A regular file, replaced by a complete new one keeping these attributes.
    case replace(stat)
    /// A regular file written in place (truncated first), as the shell's `>` does.
    case overwrite
    /// A device or FIFO, opened at once.
    case stream(Int32)
  }

  /// The path as the user gave it, for messages.
  let requested: ScanPath
  /// The path written: a symbolic link to a regular file is resolved so the link itself is kept.
  let path: ScanPath
  /// How it is written.
  let destination: Destination
  private let option: String
  private let force: Bool
  /// Whether the descriptor of ``Destination/stream(_:)`` was handed to the caller.
  private var streamTaken = false

  /// Checks `requested` (named by `option`, such as `--output`) against the command's `inputs`
  /// and opens a device or FIFO, waiting at most `fifoWait` for a FIFO's reader; throws one line
  /// saying why it cannot be written.
  init(_ requested: ScanPath, option: String, force: Bool, inputs: [CommandInput], fifoWait: Duration) throws
  {
    self.requested = requested
    self.option = option
    self.force = force
    guard !requested.bytes.isEmpty else {
      throw ScanUsageError(description: "\(option) needs a file name, not an empty one")
    }
    var info = stat()
    guard requested.withCString({ stat($0, &info) }) == 0 else {
      let code = errno
      let reason = ScanPathError.current()
      guard code == ENOENT else { throw Self.refusal(option, requested, reason.description) }
      path = requested
      destination = .create
      try checkNewFile()
      return
    }
    let identity = FileIdentity(info)
    if let input = inputs.first(where: { $0.identity == identity }) {
      let spelled = input.name == requested.displayName ? "" : " (\(input.name))"
      throw Self.refusal(option, requested, "it is also an input of this command\(spelled)")
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      path = Self.resolved(requested)
      destination = try Self.regularFile(path, info, requested: requested, option: option, force: force)
    case S_IFCHR, S_IFIFO:
      path = requested
      // A reader that goes away must be an error (EPIPE), not a signal that kills the command.
      signal(SIGPIPE, SIG_IGN)
      do throws(BoundedOpen.Failure) {
        destination = .stream(try BoundedOpen.forWriting(requested.bytes, wait: fifoWait))
      } catch {
        throw Self.failure(requested, "\(error)" + BoundedOpen.hint(error, other: "reader"))
      }
    case S_IFDIR:
      throw Self.refusal(option, requested, "it is a directory; name a file")
    case S_IFBLK:
      throw Self.refusal(option, requested, "it is a block device (a disk); name a file")
    case S_IFSOCK:
      throw Self.refusal(option, requested, "it is a socket; name a file")
    default:
      throw Self.refusal(option, requested, "it is not a regular file, a character device or a FIFO")
    }
  }

  deinit {
    if case .stream(let fd) = destination, !streamTaken { close(fd) }
  }

  /// Writes the whole content, as chunks come from `produce` (which calls its argument once per
  /// chunk), or throws one line saying why not; a regular file changes only once all is written.
  func write(_ produce: ((Data) throws -> Void) throws -> Void) throws {
    switch destination {
    case .stream(let fd):
      try produce { try self.writeAll($0, to: fd) }
    case .overwrite:
      let fd = try openTruncated()
      defer { close(fd) }
      try produce { try self.writeAll($0, to: fd) }
    case .create, .replace:
      let temporary = try OutputTemporaryFile(beside: path, failure: { Self.failure(self.requested, $0) })
      do {
        try produce { try self.writeAll($0, to: temporary.fd) }
        if case .replace(let kept) = destination { try temporary.keepAttributes(of: kept) }
        try temporary.finish()
        try place(temporary)
      } catch {
        temporary.discard()
        throw error
      }
    }
  }

  /// Opens the file to be written as a stream (`serve --record`, seen by readers as it grows):
  /// a new file is created, an existing one truncated in place; the caller closes the descriptor.
  func openStream() throws -> Int32 {
    switch destination {
    case .stream(let fd):
      streamTaken = true
      return fd
    case .create:
      let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL)
      let fd = path.withCString { open($0, flags, 0o666) }
      guard fd >= 0 else { throw Self.failure(requested, ScanPathError.current().description) }
      return fd
    case .replace, .overwrite:
      return try openTruncated()
    }
  }

  /// A new file: its directory must exist and take new files, and a name ending in `/` or a
  /// symbolic link to nothing is refused rather than guessed at.
  private func checkNewFile() throws {
    if requested.bytes.last == UInt8(ascii: "/") {
      throw Self.refusal(option, requested, "it names a directory that does not exist; name a file")
    }
    var link = stat()
    if requested.withCString({ lstat($0, &link) }) == 0 {
      throw Self.refusal(option, requested, "it is a symbolic link to nothing; name a file or fix the link")
    }
    let directory = Self.directory(of: requested)
    var info = stat()
    guard directory.withCString({ stat($0, &info) }) == 0 else {
      let reason = ScanPathError.current().description
      throw Self.refusal(
        option, requested, "its directory \(directory.displayName) cannot be used: \(reason)")
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw Self.refusal(option, requested, "\(directory.displayName) is not a directory")
    }
    guard Self.mayCreate(in: directory) else {
      let reason = ScanPathError.current().description
      throw Self.refusal(option, requested, "cannot create a file in \(directory.displayName): \(reason)")
    }
  }

  /// How an existing regular file is written, after checking that the shell's `>` could write it
  /// and that `--force` was given.
  private static func regularFile(
    _ path: ScanPath, _ info: stat, requested: ScanPath, option: String, force: Bool
  ) throws -> Destination {
    // The kernel's own check, as `>` gets it: root passes a 0444 file, others do not.
    let probe = path.withCString { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
    guard probe >= 0 else { throw failure(requested, ScanPathError.current().description) }
    close(probe)
    guard force else { throw refusal(option, requested, "it exists; pass --force to replace it") }
    let ownerKept = geteuid() == 0 || info.st_uid == geteuid()
    return ownerKept && mayCreate(in: directory(of: path)) ? .replace(info) : .overwrite
  }

  /// Moves the complete temporary file to the path: over the old file when replacing or forced,
  /// otherwise only if no file appeared there meanwhile.
  private func place(_ temporary: OutputTemporaryFile) throws {
    if case .create = destination, !force {
      let linked = temporary.path.withCString { from in path.withCString { to in link(from, to) } }
      if linked == 0 {
        temporary.discard()
        return
      }
      if errno == EEXIST {
        throw Self.refusal(option, requested, "a file appeared there while the command ran; pass --force")
      }
      // A file system without hard links: rename instead.
    }
    let renamed = temporary.path.withCString { from in path.withCString { to in rename(from, to) } }
    guard renamed == 0 else { throw Self.failure(requested, ScanPathError.current().description) }
  }

  /// Opens the existing file for writing in place, emptied first, as the shell's `>` does.
  private func openTruncated() throws -> Int32 {
    let fd = path.withCString { open($0, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY) }
    guard fd >= 0 else { throw Self.failure(requested, ScanPathError.current().description) }
    return fd
  }

  private func writeAll(_ data: Data, to fd: Int32) throws {
    do {
      try DescriptorWrite.all(data, to: fd)
    } catch {
      throw Self.failure(requested, "\(error)")
    }
  }

  /// Whether the process may create a file in `directory` (its effective ids, as the kernel
  /// decides; `errno` says why not).
  private static func mayCreate(in directory: ScanPath) -> Bool {
    directory.withCString { faccessat(AT_FDCWD, $0, W_OK | X_OK, AT_EACCESS) } == 0
  }

  /// The directory part of `path`: `.` for a bare name, `/` for a name under the root.
  static func directory(of path: ScanPath) -> ScanPath {
    guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return ScanPath(".") }
    return slash == 0 ? ScanPath("/") : ScanPath(bytes: Array(path.bytes[..<slash]))
  }

  private static func resolved(_ path: ScanPath) -> ScanPath {
    guard let real = path.withCString({ realpath($0, nil) }) else { return path }
    defer { free(real) }
    return ScanPath(
      bytes: Array(UnsafeBufferPointer(start: real, count: strlen(real)).map { UInt8(bitPattern: $0) }))
  }

  static func refusal(_ option: String, _ path: ScanPath, _ reason: String) -> ScanUsageError {
    ScanUsageError(description: "refusing \(option) \(path.displayName): \(reason)")
  }

  static func failure(_ path: ScanPath, _ reason: String) -> ScanUsageError {
    ScanUsageError(description: "cannot write \(path.displayName): \(reason)")
  }
}

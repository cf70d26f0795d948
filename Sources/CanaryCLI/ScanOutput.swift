import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `canary scan --output` writes, decided before anything is scanned so that nothing the
/// user owns is destroyed: a regular file is replaced atomically keeping its mode, a device or
/// FIFO (such as `/dev/null`) is written in place and never replaced, and a directory, a socket
/// or a file that is also an input is refused.
struct ScanOutput {
  /// How the report reaches the path.
  enum Mode: Equatable {
    /// Write a temporary file beside it and rename it over the path, with this permission mode.
    case replace(mode: mode_t?)
    /// Open the existing device or FIFO and write to it.
    case inPlace
  }

  /// The path written; a symbolic link is resolved so the link itself is kept.
  let path: ScanPath
  /// How it is written.
  let mode: Mode
  /// The file there now, if any, to refuse writing over an input.
  let identity: FileIdentity?

  /// Checks `requested` and decides how to write it; throws a one-line reason to refuse.
  init(_ requested: ScanPath) throws {
    var info = stat()
    guard requested.withCString({ stat($0, &info) }) == 0 else {
      guard errno == ENOENT else { throw Self.refusal(requested, ScanPathError.current().description) }
      path = requested
      mode = .replace(mode: nil)
      identity = nil
      return
    }
    identity = FileIdentity(info)
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      path = Self.resolved(requested)
      mode = .replace(mode: info.st_mode & 0o7777)
    case S_IFCHR, S_IFIFO:
      path = requested
      mode = .inPlace
    case S_IFDIR:
      throw Self.refusal(requested, "it is a directory; name a file")
    default:
      throw Self.refusal(requested, "it is not a regular file, a device or a FIFO")
    }
  }

  /// Writes the whole report, as chunks come from `produce` (which calls its argument once per
  /// chunk), or throws a one-line reason; a regular file is only replaced once all is written.
  func write(_ produce: ((Data) throws -> Void) throws -> Void) throws {
    switch mode {
    case .inPlace:
      let fd = path.withCString { open($0, O_WRONLY | O_CLOEXEC) }
      guard fd >= 0 else { throw Self.failure(path, ScanPathError.current().description) }
      defer { close(fd) }
      try produce { try Self.writeAll($0, to: fd, path: path) }
    case .replace(let keptMode):
      let temporary = try TemporaryFile(beside: path)
      var closed = false
      do {
        try produce { try Self.writeAll($0, to: temporary.fd, path: path) }
        if let keptMode, fchmod(temporary.fd, keptMode) != 0 {
          throw Self.failure(path, ScanPathError.current().description)
        }
        guard fsync(temporary.fd) == 0 else { throw Self.failure(path, ScanPathError.current().description) }
        closed = true
        guard close(temporary.fd) == 0 else { throw Self.failure(path, ScanPathError.current().description) }
        try temporary.moveIntoPlace()
      } catch {
        if !closed { close(temporary.fd) }
        temporary.remove()
        throw error
      }
    }
  }

  static func refusal(_ path: ScanPath, _ reason: String) -> ScanUsageError {
    ScanUsageError(description: "refusing --output \(path.displayName): \(reason)")
  }

  static func failure(_ path: ScanPath, _ reason: String) -> ScanUsageError {
    ScanUsageError(description: "cannot write \(path.displayName): \(reason)")
  }

  private static func resolved(_ path: ScanPath) -> ScanPath {
    guard let real = path.withCString({ realpath($0, nil) }) else { return path }
    defer { free(real) }
    return ScanPath(
      bytes: Array(UnsafeBufferPointer(start: real, count: strlen(real)).map { UInt8(bitPattern: $0) }))
  }

  private static func writeAll(_ data: Data, to fd: Int32, path: ScanPath) throws {
    try data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw failure(path, ScanPathError.current().description)
        }
        offset += written
      }
    }
  }

  /// A new file beside the target, renamed over it once complete.
  private struct TemporaryFile {
    let target: ScanPath
    let path: ScanPath
    let fd: Int32

    init(beside target: ScanPath) throws {
      self.target = target
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
        guard errno == EEXIST, attempt < 100 else {
          throw ScanOutput.failure(target, ScanPathError.current().description)
        }
        attempt += 1
      }
    }

    func moveIntoPlace() throws {
      let renamed = path.withCString { from in target.withCString { to in rename(from, to) } }
      guard renamed == 0 else { throw ScanOutput.failure(target, ScanPathError.current().description) }
    }

    func remove() { _ = path.withCString { unlink($0) } }
  }
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
  #else
    Darwin.write(fd, bytes, count)
  #endif
}

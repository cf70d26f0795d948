#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a manifest's bytes (or another small JSON file's) with POSIX calls, so each failure says
/// what is actually wrong; it stops at a maximum size so a device such as `/dev/zero` cannot
/// exhaust memory, and a FIFO waits at most ``BoundedOpen/defaultWait`` for its writer.
package enum ManifestFile {
  /// The largest manifest read: 16 MiB.
  package static let maximumSize = 16 << 20

  /// The bytes of the file at `path` (pipes and FIFOs included), at most `maximumSize` of them
  /// (`what` names the kind of file in the refusal), or a ``ManifestError``.
  package static func read(
    path: [UInt8], name: String, maximumSize: Int = maximumSize,
    what: String = "a manifest is a small JSON file"
  ) throws -> [UInt8] {
    let fd: Int32
    do throws(BoundedOpen.Failure) {
      fd = try BoundedOpen.forReading(path, wait: BoundedOpen.defaultWait)
    } catch {
      throw ManifestError.unreadable(path: name, reason: error.description)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ManifestError.unreadable(path: name, reason: errorText()) }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw ManifestError.unreadable(path: name, reason: "it is a directory, not a JSON file")
    }
    // A regular file's size is known: one over the limit is refused before any byte is read.
    if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > maximumSize {
      throw ManifestError.unreadable(
        path: name, reason: "it holds more than \(maximumSize >> 20) MiB (\(info.st_size) bytes); \(what)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        throw ManifestError.unreadable(path: name, reason: errorText())
      }
      if got == 0 { return bytes }
      guard bytes.count + got <= maximumSize else {
        throw ManifestError.unreadable(
          path: name, reason: "it holds more than \(maximumSize >> 20) MiB; \(what)")
      }
      bytes += chunk[..<got]
    }
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }

  private static func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, bytes, count)
    #else
      Darwin.read(fd, bytes, count)
    #endif
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a manifest's bytes with POSIX calls, so each failure says what is actually wrong, and
/// stops at ``maximumSize`` so a device such as `/dev/zero` cannot exhaust memory.
enum ManifestFile {
  /// The largest manifest read: 16 MiB.
  static let maximumSize = 16 << 20

  /// The bytes of the file at `path` (pipes and FIFOs included), or a ``ManifestError``.
  static func read(path: [UInt8], name: String) throws -> [UInt8] {
    let fd = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
    }
    guard fd >= 0 else { throw ManifestError.unreadable(path: name, reason: errorText()) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ManifestError.unreadable(path: name, reason: errorText()) }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw ManifestError.unreadable(path: name, reason: "it is a directory, not a JSON file")
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
          path: name, reason: "it holds more than \(maximumSize >> 20) MiB; a manifest is a small JSON file")
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

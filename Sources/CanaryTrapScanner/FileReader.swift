import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a scan could not read its input.
package enum ScanError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The path could not be opened or read.
  case unreadable(path: String, reason: String)

  /// A one-line reason naming the path.
  package var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    }
  }
}

/// Opens and reads files with POSIX calls, so reads land straight in the scan buffer.
enum FileReader {
  /// Opens `url` for reading (never a directory) and hands the descriptor to `body`.
  static func read<T>(_ url: URL, _ body: (Int32) throws -> T) throws -> T {
    let path = url.path
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ScanError.unreadable(path: path, reason: lastError()) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ScanError.unreadable(path: path, reason: lastError()) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw ScanError.unreadable(path: path, reason: "is a directory") }
    return try body(fd)
  }

  /// Reads and counts the lines of the next `length` bytes of `fd` (where an incremental scan
  /// resumes), returning the counter positioned after them, or at the end of a shorter file.
  static func countLines(of fd: Int32, upTo length: Int, path: String) throws -> LineCounter {
    var counter = LineCounter()
    guard length > 0 else { return counter }
    let chunk = 1 << 20
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    defer { buffer.deallocate() }
    while counter.position < length {
      let got = try readSome(fd, into: buffer, count: min(chunk, length - counter.position), path: path)
      guard got > 0 else { break }  // Shorter than before: nothing new to scan.
      counter.advance(over: buffer, count: got)
    }
    return counter
  }

  /// Reads at most `count` bytes, retrying on interruption; 0 means end of file.
  static func readSome(_ fd: Int32, into pointer: UnsafeMutablePointer<UInt8>, count: Int, path: String)
    throws -> Int
  {
    while true {
      #if canImport(Glibc)
        let result = Glibc.read(fd, pointer, count)
      #else
        let result = Darwin.read(fd, pointer, count)
      #endif
      if result >= 0 { return result }
      if errno == EINTR { continue }
      throw ScanError.unreadable(path: path, reason: lastError())
    }
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}

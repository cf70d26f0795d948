import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a scan could not read its input.
public enum ScanError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The path could not be opened or read.
  case unreadable(path: String, reason: String)

  /// A one-line reason naming the path.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    }
  }
}

/// Opens and reads files with POSIX calls, so reads land straight in the scan buffer.
enum FileReader {
  /// Opens `url` for reading, seeks to `offset`, and hands the descriptor to `body`.
  static func read(_ url: URL, from offset: UInt64, _ body: (Int32) throws -> Void) throws {
    let path = url.path
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ScanError.unreadable(path: path, reason: lastError()) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ScanError.unreadable(path: path, reason: lastError()) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw ScanError.unreadable(path: path, reason: "is a directory") }
    if offset > 0, lseek(fd, off_t(offset), SEEK_SET) < 0 {
      throw ScanError.unreadable(path: path, reason: lastError())
    }
    try body(fd)
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

  /// Sets the line and column of `findings` (sorted by offset) by counting the newlines of the
  /// file from `offset` up to the last finding.
  static func numberLines(of findings: inout [LeakFinding], in url: URL, from offset: UInt64) throws {
    let chunk = 1 << 20
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    defer { buffer.deallocate() }
    var counter = LineCounter()
    var next = 0
    try read(url, from: offset) { fd in
      var chunkStart = 0
      while next < findings.count {
        let length = try readSome(fd, into: buffer, count: chunk, path: url.path)
        guard length > 0 else { break }
        var consumed = 0
        while next < findings.count, findings[next].offset < chunkStart + length {
          let target = findings[next].offset - chunkStart
          counter.advance(over: buffer + consumed, count: target - consumed)
          consumed = target
          (findings[next].line, findings[next].column) = counter.lineAndColumn
          next += 1
        }
        counter.advance(over: buffer + consumed, count: length - consumed)
        chunkStart += length
      }
    }
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}

import CanaryTrap

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file system path as the bytes the system uses, so names that are not UTF-8 still open,
/// with the escaped name reports and messages show.
struct ScanPath: Hashable, Sendable {
  /// The path's bytes, without a terminating NUL.
  let bytes: [UInt8]

  /// A path from its bytes.
  init(bytes: [UInt8]) { self.bytes = bytes }

  /// A path from text.
  init(_ text: String) { bytes = Array(text.utf8) }

  /// The name findings and messages use: UTF-8 kept, control and invalid bytes escaped as
  /// reports escape excerpts (`\xFF`, `\x1B`), so a name can never drive a terminal.
  var displayName: String { bytes.withUnsafeBufferPointer { Excerpt.render($0) } }

  /// `self/name`.
  func appending(_ name: [UInt8]) -> ScanPath {
    ScanPath(bytes: bytes.last == UInt8(ascii: "/") ? bytes + name : bytes + [UInt8(ascii: "/")] + name)
  }

  /// Calls `body` with the path as a C string.
  func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
    try (bytes + [0]).withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }

  /// `stat` of the path (following links), or the `errno` text.
  func status() -> Result<stat, ScanPathError> {
    var info = stat()
    return withCString { stat($0, &info) } == 0 ? .success(info) : .failure(ScanPathError.current())
  }
}

/// The `errno` of a failed call, as text.
struct ScanPathError: Error, CustomStringConvertible {
  let description: String

  static func current() -> ScanPathError { ScanPathError(description: String(cString: strerror(errno))) }
}

/// A file's identity on its device, to tell when two paths name the same file.
struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64

  init(_ info: stat) {
    device = StatIdentity.key(info.st_dev)
    inode = StatIdentity.key(info.st_ino)
  }

  /// The identity of an open descriptor, if it can be read.
  init?(descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    self.init(info)
  }
}

extension ScanPath: CustomStringConvertible {
  /// The escaped name, as ``displayName``.
  var description: String { displayName }
}

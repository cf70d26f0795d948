import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole buffers to a descriptor, the one loop every writer of the command uses.
enum DescriptorWrite {
  /// Writes all of `data` to `fd`, retrying short writes and interruptions; throws the `errno`
  /// text of the first failure (`No space left on device`, `Broken pipe`).
  static func all(_ data: Data, to fd: Int32) throws(ScanPathError) {
    let failure: ScanPathError? = data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = systemWrite(fd, raw.baseAddress! + offset, min(raw.count - offset, 1 << 20))
        if written < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return ScanPathError.current()
        }
        offset += written
      }
      return nil
    }
    if let failure { throw failure }
  }

  private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, bytes, count)
    #else
      Darwin.write(fd, bytes, count)
    #endif
  }
}

import CanaryTrapPrimitives

/// The bytes of an open file descriptor from its current position; it does not own the descriptor.
final class FileDescriptorSource: ByteSource {
  private let fd: Int32
  private let path: String
  /// Bytes left before the caller's limit (`--max-bytes`); the source ends there.
  private var remaining: Int

  init(fd: Int32, path: String, limit: Int = .max) {
    self.fd = fd
    self.path = path
    remaining = limit
  }

  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    guard remaining > 0 else { return 0 }
    let read = try FileReader.readSome(fd, into: pointer, count: min(count, remaining), path: path)
    remaining -= read
    return read
  }
}

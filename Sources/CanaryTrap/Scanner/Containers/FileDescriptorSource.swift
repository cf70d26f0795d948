import CanaryTrapPrimitives

/// The bytes of an open file descriptor from its current position; it does not own the descriptor.
final class FileDescriptorSource: ByteSource {
  private let fd: Int32
  private let path: String

  init(fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    try FileReader.readSome(fd, into: pointer, count: count, path: path)
  }
}

extension Array where Element == UInt8 {
  /// Appends `count` bytes that `write` fills in place, without first filling them with zeros.
  mutating func append(writing count: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void) {
    guard count > 0 else { return }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
      write(buffer.baseAddress!)
      append(contentsOf: UnsafeBufferPointer(buffer))
    }
  }
}

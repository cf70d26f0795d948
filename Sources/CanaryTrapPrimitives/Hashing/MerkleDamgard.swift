/// The padding and word helpers shared by MD5, SHA-1, SHA-256 and SHA-512.
package enum MerkleDamgard {
  /// `message` padded with `0x80`, zeros and its bit length to whole blocks of `blockSize` bytes
  /// (64, with a 64-bit length; or 128, SHA-512's, with a 128-bit length whose high half is
  /// zero), in one allocation.
  package static func padded(_ message: [UInt8], blockSize: Int = 64, bigEndianLength: Bool) -> [UInt8] {
    let count = ((message.count + blockSize / 8) / blockSize + 1) * blockSize
    var padded = [UInt8](repeating: 0, count: count)
    padded.withUnsafeMutableBufferPointer { bytes in
      _ = UnsafeMutableBufferPointer(rebasing: bytes[0..<message.count]).initialize(from: message)
      bytes[message.count] = 0x80
      let bitLength = UInt64(message.count) &* 8
      for i in 0..<8 {
        let shift = bigEndianLength ? UInt64(56 - 8 * i) : UInt64(8 * i)
        bytes[count - 8 + i] = UInt8(truncatingIfNeeded: bitLength >> shift)
      }
    }
    return padded
  }

  /// The big-endian 32-bit word at `offset` of `bytes`.
  @inline(__always)
  package static func bigEndianWord(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }

  /// The little-endian 32-bit word at `offset` of `bytes`.
  @inline(__always)
  package static func littleEndianWord(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }

  /// The words of `state`, each most significant byte first.
  package static func bigEndianBytes(_ state: [UInt32]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(state.count * 4)
    for word in state {
      for shift in stride(from: 24, through: 0, by: -8) {
        output.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
      }
    }
    return output
  }
}

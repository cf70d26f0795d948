/// The padding and word helpers shared by MD5, SHA-1 and SHA-256.
package enum MerkleDamgard {
  /// `message` padded with `0x80`, zeros and its bit length (64 bits), cut into 64-byte blocks.
  package static func blocks(of message: [UInt8], bigEndianLength: Bool) -> [ArraySlice<UInt8>] {
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bitLength = UInt64(message.count) &* 8
    for i in 0..<8 {
      let shift = bigEndianLength ? UInt64(56 - 8 * i) : UInt64(8 * i)
      padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
    }
    return stride(from: 0, to: padded.count, by: 64).map { padded[$0..<$0 + 64] }
  }

  /// The big-endian 32-bit word at `offset` of `block`.
  package static func bigEndianWord(_ block: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
    let base = block.startIndex + offset
    return UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8
      | UInt32(block[base + 3])
  }

  /// The little-endian 32-bit word at `offset` of `block`.
  package static func littleEndianWord(_ block: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
    let base = block.startIndex + offset
    return UInt32(block[base]) | UInt32(block[base + 1]) << 8 | UInt32(block[base + 2]) << 16
      | UInt32(block[base + 3]) << 24
  }

  /// The four bytes of `word`, most significant first.
  package static func bigEndianBytes(_ word: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
  }
}

/// ASCII case folding for the matcher.
enum ByteFold {
  /// Maps `A`–`Z` to `a`–`z` and every other byte to itself.
  static let table: [UInt8] = (0...255).map { byte in
    (0x41...0x5A).contains(byte) ? UInt8(byte | 0x20) : UInt8(byte)
  }

  /// The cheap fold the q-gram filter uses: bit 5 set in every byte. It folds letters and merges
  /// a few other byte pairs, which only costs an extra verification.
  static let filterFold: UInt64 = 0x2020_2020_2020_2020

  /// Multiplier of the q-gram hash (Fibonacci hashing).
  static let hashMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// A 64-bit hash of a folded q-gram independent of `gram &* hashMultiplier`, for the second
  /// filter.
  @inline(__always)
  static func secondHash(_ gram: UInt64) -> UInt64 {
    (gram ^ (gram >> 31)) &* 0xD6E8_FEB8_6659_FD93
  }

  /// A 32-bit fingerprint of a folded q-gram, independent of the bits the hash uses.
  @inline(__always)
  static func fingerprint(_ gram: UInt64) -> UInt32 {
    let mixed = (gram ^ (gram >> 29)) &* 0xBF58_476D_1CE4_E5B9
    return UInt32(truncatingIfNeeded: mixed >> 32)
  }
}

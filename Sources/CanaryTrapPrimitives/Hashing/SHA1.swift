/// SHA-1 (FIPS 180-4), implemented here so the package needs no crypto dependency: the scanner
/// looks for SHA-1 digests of canaries, and the WebSocket handshake computes its accept value.
package enum SHA1 {
  /// The 20-byte digest of `message`.
  package static func digest(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var schedule = [UInt32](repeating: 0, count: 80)
    MerkleDamgard.padded(message, bigEndianLength: true).withUnsafeBufferPointer { bytes in
      schedule.withUnsafeMutableBufferPointer { schedule in
        for block in stride(from: 0, to: bytes.count, by: 64) {
          for i in 0..<16 { schedule[i] = MerkleDamgard.bigEndianWord(bytes, at: block + i * 4) }
          for i in 16..<80 {
            schedule[i] = rotl(schedule[i - 3] ^ schedule[i - 8] ^ schedule[i - 14] ^ schedule[i - 16], 1)
          }
          var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
          for i in 0..<80 {
            let (f, k): (UInt32, UInt32)
            switch i {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let temp = rotl(a, 5) &+ f &+ e &+ k &+ schedule[i]
            (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
          }
          state[0] &+= a
          state[1] &+= b
          state[2] &+= c
          state[3] &+= d
          state[4] &+= e
        }
      }
    }
    return MerkleDamgard.bigEndianBytes(state)
  }

  private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}

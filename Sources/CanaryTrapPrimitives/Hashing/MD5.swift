import Foundation

/// MD5 (RFC 1321), implemented here so the package needs no crypto dependency.
package enum MD5 {
  private static let shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
  ]

  /// The sine-derived constants: floor(abs(sin(i + 1)) * 2^32).
  private static let constants: [UInt32] = (0..<64).map {
    UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down)))
  }

  /// The 16-byte digest of `message`.
  package static func digest(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]
    var words = [UInt32](repeating: 0, count: 16)
    MerkleDamgard.padded(message, bigEndianLength: false).withUnsafeBufferPointer { bytes in
      words.withUnsafeMutableBufferPointer { words in
        shifts.withUnsafeBufferPointer { shifts in
          constants.withUnsafeBufferPointer { constants in
            for block in stride(from: 0, to: bytes.count, by: 64) {
              for i in 0..<16 { words[i] = MerkleDamgard.littleEndianWord(bytes, at: block + i * 4) }
              var (a, b, c, d) = (state[0], state[1], state[2], state[3])
              for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0..<16: (f, g) = ((b & c) | (~b & d), i)
                case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * i + 1) % 16)
                case 32..<48: (f, g) = (b ^ c ^ d, (3 * i + 5) % 16)
                default: (f, g) = (c ^ (b | ~d), (7 * i) % 16)
                }
                f = f &+ a &+ constants[i] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ ((f << shifts[i]) | (f >> (32 - shifts[i])))
              }
              state[0] &+= a
              state[1] &+= b
              state[2] &+= c
              state[3] &+= d
            }
          }
        }
      }
    }
    var output: [UInt8] = []
    output.reserveCapacity(16)
    for word in state {
      for shift in stride(from: 0, through: 24, by: 8) {
        output.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
      }
    }
    return output
  }
}

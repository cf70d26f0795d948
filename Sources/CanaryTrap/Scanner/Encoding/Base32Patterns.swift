/// The base32 (RFC 4648) cores of a value: the characters fully determined by the value's own
/// bits, at each of the five byte alignments it can start at inside a larger encoded blob.
enum Base32Patterns {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// The cores at alignments 0 to 4 (empty cores dropped).
  static func cores(of value: [UInt8]) -> [[UInt8]] {
    (0..<5).map { core(of: value, alignment: $0) }.filter { !$0.isEmpty }
  }

  /// The characters of `alignment` unknown bytes followed by `value` that depend on `value` only.
  static func core(of value: [UInt8], alignment: Int) -> [UInt8] {
    let firstChar = (alignment * 8 + 4) / 5
    let lastChar = (alignment + value.count) * 8 / 5
    guard firstChar < lastChar else { return [] }
    // Five data bytes (the value after `alignment` zero bytes) make eight characters.
    let groups = (lastChar + 7) / 8
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: groups * 5) { data in
      data.initialize(repeating: 0)
      for (index, byte) in value.enumerated() where alignment + index < data.count {
        data[alignment + index] = byte
      }
      return alphabet.withUnsafeBufferPointer { alphabet in
        [UInt8](unsafeUninitializedCapacity: lastChar - firstChar) { output, count in
          for group in (firstChar / 8)..<groups {
            var bits: UInt64 = 0
            for index in group * 5..<group * 5 + 5 { bits = bits << 8 | UInt64(data[index]) }
            for offset in 0..<8 {
              let char = group * 8 + offset
              guard char >= firstChar && char < lastChar else { continue }
              output[char - firstChar] = alphabet[Int(bits >> UInt64(35 - 5 * offset) & 31)]
            }
          }
          count = lastChar - firstChar
        }
      }
    }
  }
}

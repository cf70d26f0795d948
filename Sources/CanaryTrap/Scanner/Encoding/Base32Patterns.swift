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
    var output: [UInt8] = []
    output.reserveCapacity(lastChar - firstChar)
    for char in firstChar..<lastChar {
      // Bits [5·char, 5·char + 5) of the data, where data bit 0 is the top bit of byte 0.
      var symbol = 0
      for bit in (char * 5)..<(char * 5 + 5) {
        let byteIndex = bit / 8 - alignment
        let byte = byteIndex >= 0 ? Int(value[byteIndex]) : 0
        symbol = symbol << 1 | (byte >> (7 - bit % 8)) & 1
      }
      output.append(alphabet[symbol])
    }
    return output
  }
}

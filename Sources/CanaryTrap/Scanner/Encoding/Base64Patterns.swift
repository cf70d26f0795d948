/// The base64 cores of a value: the characters fully determined by the value's own bits, at each
/// of the three byte alignments the value can start at inside a larger encoded blob.
///
/// A core is a substring of the padded and the unpadded encoding alike, so one pattern per
/// alignment finds both, and finds `user:CANARY` inside a Basic authorization header.
enum Base64Patterns {
  static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// The cores at alignments 0, 1 and 2 (empty cores dropped).
  static func cores(of value: [UInt8], alphabet: [UInt8]) -> [[UInt8]] {
    (0..<3).map { core(of: value, alignment: $0, alphabet: alphabet) }.filter { !$0.isEmpty }
  }

  /// The whole encoding of `value` with `=` padding, the form a digest usually takes.
  static func encode(_ value: [UInt8], alphabet: [UInt8], padded: Bool = true) -> [UInt8] {
    var output = core(of: value, alignment: 0, alphabet: alphabet, includeTail: true)
    if padded { while output.count % 4 != 0 { output.append(UInt8(ascii: "=")) } }
    return output
  }

  /// The characters of `alignment` unknown bytes followed by `value` that depend on `value` only;
  /// with `includeTail`, the last partial character too, as if the value ended the data.
  static func core(
    of value: [UInt8], alignment: Int, alphabet: [UInt8], includeTail: Bool = false
  ) -> [UInt8] {
    let dataCount = alignment + value.count
    let totalBits = dataCount * 8
    let firstChar = (alignment * 8 + 5) / 6
    let lastChar = includeTail ? (totalBits + 5) / 6 : totalBits / 6
    guard firstChar < lastChar else { return [] }
    // The data is `alignment` zero bytes, then the value, then zero bytes: encoded three bytes
    // to four characters, keeping the characters wanted.
    let groups = (lastChar + 3) / 4
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: groups * 3) { data in
      data.initialize(repeating: 0)
      for (index, byte) in value.enumerated() where alignment + index < data.count {
        data[alignment + index] = byte
      }
      return alphabet.withUnsafeBufferPointer { alphabet in
        [UInt8](unsafeUninitializedCapacity: lastChar - firstChar) { output, count in
          for group in (firstChar / 4)..<groups {
            let b0 = Int(data[group * 3])
            let b1 = Int(data[group * 3 + 1])
            let b2 = Int(data[group * 3 + 2])
            let symbols = (b0 >> 2, (b0 & 3) << 4 | b1 >> 4, (b1 & 15) << 2 | b2 >> 6, b2 & 63)
            for offset in 0..<4 {
              let char = group * 4 + offset
              guard char >= firstChar && char < lastChar else { continue }
              let symbol =
                offset == 0 ? symbols.0 : offset == 1 ? symbols.1 : offset == 2 ? symbols.2 : symbols.3
              output[char - firstChar] = alphabet[symbol]
            }
          }
          count = lastChar - firstChar
        }
      }
    }
  }
}

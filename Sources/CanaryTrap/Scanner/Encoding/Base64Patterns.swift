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
    let data = [UInt8](repeating: 0, count: alignment) + value
    let totalBits = data.count * 8
    let firstChar = (alignment * 8 + 5) / 6
    let lastChar = includeTail ? (totalBits + 5) / 6 : totalBits / 6
    guard firstChar < lastChar else { return [] }
    // Standard encoding, three bytes to four characters, then the characters wanted.
    var encoded: [UInt8] = []
    encoded.reserveCapacity((data.count + 2) / 3 * 4)
    var index = 0
    while index < data.count {
      let b0 = Int(data[index])
      let b1 = index + 1 < data.count ? Int(data[index + 1]) : 0
      let b2 = index + 2 < data.count ? Int(data[index + 2]) : 0
      encoded.append(alphabet[b0 >> 2])
      encoded.append(alphabet[(b0 & 3) << 4 | b1 >> 4])
      encoded.append(alphabet[(b1 & 15) << 2 | b2 >> 6])
      encoded.append(alphabet[b2 & 63])
      index += 3
    }
    return Array(encoded[firstChar..<lastChar])
  }
}

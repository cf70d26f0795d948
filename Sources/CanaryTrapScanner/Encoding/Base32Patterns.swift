/// The base32 (RFC 4648) cores of a value: the characters fully determined by the value's own
/// bits, at each of the five byte alignments it can start at inside a larger encoded blob.
enum Base32Patterns {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// Appends the characters of `alignment` unknown bytes followed by `value` that depend on
  /// `value` only to `output`, which a canary's literals share.
  static func appendCore(of value: UnsafeBufferPointer<UInt8>, alignment: Int, to output: inout [UInt8]) {
    let firstChar = (alignment * 8 + 4) / 5
    let lastChar = (alignment + value.count) * 8 / 5
    guard firstChar < lastChar else { return }
    // Five data bytes (the value after `alignment` zero bytes) make eight characters; whole
    // groups are encoded and characters `firstChar..<lastChar` kept.
    let groups = (lastChar + 7) / 8
    let dataCount = groups * 5
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: dataCount + groups * 8) { buffer in
      let data = buffer.baseAddress!
      data.initialize(repeating: 0, count: dataCount)
      let copied = min(value.count, dataCount - alignment)
      if copied > 0 { (data + alignment).update(from: value.baseAddress!, count: copied) }
      let encoded = data + dataCount
      alphabet.withUnsafeBufferPointer { alphabet in
        var group = firstChar / 8
        while group < groups {
          var bits: UInt64 = 0
          for index in 0..<5 { bits = bits &<< 8 | UInt64(data[group &* 5 &+ index]) }
          for offset in 0..<8 {
            encoded[group &* 8 &+ offset] =
              alphabet[Int(truncatingIfNeeded: bits &>> UInt64(35 - 5 * offset) & 31)]
          }
          group &+= 1
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(start: encoded + firstChar, count: lastChar - firstChar))
    }
  }
}

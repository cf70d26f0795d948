/// The base64 cores of a value: the characters fully determined by the value's own bits, at each
/// of the three byte alignments the value can start at inside a larger encoded blob.
///
/// A core is a substring of the padded and the unpadded encoding alike, so one pattern per
/// alignment finds both, and finds `user:CANARY` inside a Basic authorization header.
enum Base64Patterns {
  static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// The characters of `alignment` unknown bytes followed by `value` that depend on `value` only;
  /// with `includeTail`, the last partial character too, as if the value ended the data.
  static func core(
    of value: [UInt8], alignment: Int, alphabet: [UInt8], includeTail: Bool = false
  ) -> [UInt8] {
    var output: [UInt8] = []
    value.withUnsafeBufferPointer {
      appendCore(of: $0, alignment: alignment, alphabet: alphabet, includeTail: includeTail, to: &output)
    }
    return output
  }

  /// Appends ``core(of:alignment:alphabet:includeTail:)`` to `output`, which a canary's literals
  /// share (see ``PatternEncoder/literals(for:encodings:)``).
  static func appendCore(
    of value: UnsafeBufferPointer<UInt8>, alignment: Int, alphabet: [UInt8], includeTail: Bool = false,
    to output: inout [UInt8]
  ) {
    let totalBits = (alignment + value.count) * 8
    let firstChar = (alignment * 8 + 5) / 6
    let lastChar = includeTail ? (totalBits + 5) / 6 : totalBits / 6
    guard firstChar < lastChar else { return }
    // The data is `alignment` zero bytes, then the value, then zero bytes; it is encoded three
    // bytes (four characters) at a time and characters `firstChar..<lastChar` are kept. Plain
    // loops over pointers: the unoptimized build the scopes of a debug test run use spends a
    // fifth of the scanner's set-up here otherwise.
    let groups = (lastChar + 3) / 4
    let dataCount = groups * 3
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: dataCount + groups * 4) { buffer in
      let data = buffer.baseAddress!
      data.initialize(repeating: 0, count: dataCount)
      let copied = min(value.count, dataCount - alignment)
      if copied > 0 { (data + alignment).update(from: value.baseAddress!, count: copied) }
      let encoded = data + dataCount
      alphabet.withUnsafeBufferPointer { alphabet in
        let symbols = alphabet.baseAddress!
        var group = firstChar / 4
        while group < groups {
          let input = data + group &* 3
          let word = Int(input[0]) &<< 16 | Int(input[1]) &<< 8 | Int(input[2])
          let output = encoded + group &* 4
          output[0] = symbols[word &>> 18]
          output[1] = symbols[(word &>> 12) & 63]
          output[2] = symbols[(word &>> 6) & 63]
          output[3] = symbols[word & 63]
          group &+= 1
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(start: encoded + firstChar, count: lastChar - firstChar))
    }
  }
}

/// Lookup tables that decode one deflate Huffman symbol from the low bits of the bit buffer.
///
/// An entry is a `UInt32`: bits 0–7 the bits to consume at this level, bits 8–11 the extra bits
/// that follow (lengths and distances), bits 12–15 the kind, bits 16–31 the value (a literal
/// byte, a base length or distance, or a subtable's offset). Codes longer than the primary width
/// continue in a subtable whose entry kind is ``subtable`` (its extra field holds the subtable's
/// width). Unused slots of an incomplete code are ``invalid``.
package enum HuffmanTable {
  package static let literal: UInt32 = 0
  package static let base: UInt32 = 1
  package static let endOfBlock: UInt32 = 2
  package static let subtable: UInt32 = 3
  package static let invalid: UInt32 = 4

  package static let literalLengthSize = 4096
  package static let distanceSize = 2048
  package static let literalLengthBits = 10
  package static let distanceBits = 8

  package static func entry(kind: UInt32, value: UInt32 = 0, extra: UInt32 = 0) -> UInt32 {
    value << 16 | kind << 12 | extra << 8
  }

  package static let lengthBases: [UInt32] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
    227, 258,
  ]
  package static let lengthExtra: [UInt32] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  package static let distanceBases: [UInt32] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577,
  ]
  package static let distanceExtra: [UInt32] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]

  /// The entry (without its bit count) of literal/length symbol `symbol`.
  package static func literalLengthEntry(_ symbol: Int) -> UInt32 {
    switch symbol {
    case 0..<256: entry(kind: literal, value: UInt32(symbol))
    case 256: entry(kind: endOfBlock)
    case 257..<286: entry(kind: base, value: lengthBases[symbol - 257], extra: lengthExtra[symbol - 257])
    default: entry(kind: invalid)
    }
  }

  /// The entry (without its bit count) of distance symbol `symbol`.
  package static func distanceEntry(_ symbol: Int) -> UInt32 {
    symbol < 30
      ? entry(kind: base, value: distanceBases[symbol], extra: distanceExtra[symbol]) : entry(kind: invalid)
  }

  /// The entry of code-length symbol `symbol` (its value is the symbol).
  package static func codeLengthEntry(_ symbol: Int) -> UInt32 { entry(kind: literal, value: UInt32(symbol)) }

  /// Fills `table` (of `capacity` entries) for a canonical code with `lengths`; throws when the
  /// lengths over-subscribe the code space.
  package static func build(
    lengths: UnsafeBufferPointer<UInt8>, primaryBits: Int, into table: UnsafeMutablePointer<UInt32>,
    capacity: Int, entryFor: (Int) -> UInt32
  ) throws {
    var count = [Int](repeating: 0, count: 16)
    for length in lengths { count[Int(length)] += 1 }
    count[0] = 0
    var left = 1
    for length in 1...15 {
      left = left << 1 - count[length]
      if left < 0 { throw ContainerError.corrupt("a Huffman code is over-subscribed") }
    }
    var nextCode = [Int](repeating: 0, count: 16)
    var code = 0
    for length in 1...15 {
      code = (code + count[length - 1]) << 1
      nextCode[length] = code
    }
    let primarySize = 1 << primaryBits
    let mask = primarySize - 1
    let invalidEntry = entry(kind: invalid)
    for index in 0..<primarySize { table[index] = invalidEntry }
    var codes = [Int](repeating: 0, count: lengths.count)
    var longest = [Int](repeating: 0, count: primarySize)
    for symbol in 0..<lengths.count {
      let length = Int(lengths[symbol])
      guard length > 0 else { continue }
      codes[symbol] = reversed(nextCode[length], length)
      nextCode[length] += 1
      if length > primaryBits {
        let prefix = codes[symbol] & mask
        longest[prefix] = max(longest[prefix], length)
      }
    }
    var offset = primarySize
    for prefix in 0..<primarySize where longest[prefix] > 0 {
      let subBits = longest[prefix] - primaryBits
      guard offset + (1 << subBits) <= capacity else {
        throw ContainerError.corrupt("a Huffman code needs too large a table")
      }
      table[prefix] =
        entry(kind: subtable, value: UInt32(offset), extra: UInt32(subBits)) | UInt32(primaryBits)
      for index in offset..<offset + (1 << subBits) { table[index] = invalidEntry }
      offset += 1 << subBits
    }
    for symbol in 0..<lengths.count {
      let length = Int(lengths[symbol])
      guard length > 0 else { continue }
      let reversedCode = codes[symbol]
      if length <= primaryBits {
        let value = entryFor(symbol) | UInt32(length)
        var index = reversedCode
        while index < primarySize {
          table[index] = value
          index += 1 << length
        }
      } else {
        let pointer = table[reversedCode & mask]
        let start = Int(pointer >> 16)
        let subBits = Int((pointer >> 8) & 0xF)
        let subLength = length - primaryBits
        let value = entryFor(symbol) | UInt32(subLength)
        var index = reversedCode >> primaryBits
        while index < 1 << subBits {
          table[start + index] = value
          index += 1 << subLength
        }
      }
    }
  }

  private static func reversed(_ code: Int, _ length: Int) -> Int {
    var result = 0
    var code = code
    for _ in 0..<length {
      result = result << 1 | code & 1
      code >>= 1
    }
    return result
  }
}

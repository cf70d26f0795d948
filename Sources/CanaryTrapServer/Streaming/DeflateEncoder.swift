/// A small DEFLATE (RFC 1951) compressor: one final block of fixed Huffman codes with greedy
/// LZ77 matches, enough to serve real compressed bodies whose bytes never hold the plain text.
///
/// It favours simplicity over ratio: one hash candidate per position, a 32 KiB window.
enum DeflateEncoder {
  /// Compresses `input` into a raw DEFLATE stream.
  static func deflate(_ input: [UInt8]) -> [UInt8] {
    var writer = BitWriter()
    writer.write(1, bits: 1)  // BFINAL
    writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
    let hashSize = 1 << 15
    var head = [Int](repeating: -1, count: hashSize)
    func hash(_ index: Int) -> Int {
      (Int(input[index]) << 10 ^ Int(input[index + 1]) << 5 ^ Int(input[index + 2])) & (hashSize - 1)
    }
    var index = 0
    while index < input.count {
      var matchLength = 0
      var distance = 0
      if index + 3 <= input.count {
        let key = hash(index)
        let candidate = head[key]
        head[key] = index
        if candidate >= 0, index - candidate <= 32_768 {
          let limit = min(258, input.count - index)
          var length = 0
          while length < limit && input[candidate + length] == input[index + length] { length += 1 }
          if length >= 3 {
            matchLength = length
            distance = index - candidate
          }
        }
      }
      if matchLength > 0 {
        writeLength(matchLength, to: &writer)
        writeDistance(distance, to: &writer)
        for skipped in (index + 1)..<(index + matchLength) where skipped + 3 <= input.count {
          head[hash(skipped)] = skipped
        }
        index += matchLength
      } else {
        writeLiteral(Int(input[index]), to: &writer)
        index += 1
      }
    }
    writeLiteral(256, to: &writer)  // end of block
    return writer.finish()
  }

  private static let lengthBases = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
    195, 227, 258,
  ]
  private static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBases = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtraBits = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]

  /// Writes literal/length symbol `symbol` with its fixed Huffman code (RFC 1951 §3.2.6).
  private static func writeLiteral(_ symbol: Int, to writer: inout BitWriter) {
    switch symbol {
    case 0...143: writer.writeCode(0x30 + symbol, bits: 8)
    case 144...255: writer.writeCode(0x190 + symbol - 144, bits: 9)
    case 256...279: writer.writeCode(symbol - 256, bits: 7)
    default: writer.writeCode(0xC0 + symbol - 280, bits: 8)
    }
  }

  private static func writeLength(_ length: Int, to writer: inout BitWriter) {
    var code = lengthBases.count - 1
    while lengthBases[code] > length { code -= 1 }
    writeLiteral(257 + code, to: &writer)
    if lengthExtraBits[code] > 0 { writer.write(length - lengthBases[code], bits: lengthExtraBits[code]) }
  }

  private static func writeDistance(_ distance: Int, to writer: inout BitWriter) {
    var code = distanceBases.count - 1
    while distanceBases[code] > distance { code -= 1 }
    writer.writeCode(code, bits: 5)
    if distanceExtraBits[code] > 0 {
      writer.write(distance - distanceBases[code], bits: distanceExtraBits[code])
    }
  }
}

/// Packs bits least-significant first, as DEFLATE stores them.
private struct BitWriter {
  private var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  /// Writes the low `bits` bits of `value`, least significant first (extra bits, headers).
  mutating func write(_ value: Int, bits: Int) {
    buffer |= UInt64(value & ((1 << bits) - 1)) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// Writes a Huffman code of `bits` bits, most significant bit first.
  mutating func writeCode(_ code: Int, bits: Int) {
    var reversed = 0
    for bit in 0..<bits where code & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
    write(reversed, bits: bits)
  }

  /// The bytes, the last one padded with zero bits.
  mutating func finish() -> [UInt8] {
    if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    count = 0
    return bytes
  }
}

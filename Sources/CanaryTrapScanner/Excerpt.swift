/// Builds the short, bounded excerpt shown with a finding.
package enum Excerpt {
  /// The range of `buffer` an excerpt of `match` shows: up to `radius` bytes on each side, cut at
  /// the nearest line break (`\n` or `\r`) so it never carries bytes of a neighbouring line.
  static func bounds(in buffer: UnsafeBufferPointer<UInt8>, match: Range<Int>, radius: Int) -> Range<Int> {
    var low = match.lowerBound
    let lowest = max(0, match.lowerBound - radius)
    while low > lowest, !isLineBreak(buffer[low - 1]) { low -= 1 }
    var high = match.upperBound
    let highest = min(buffer.count, match.upperBound + radius)
    while high < highest, !isLineBreak(buffer[high]) { high += 1 }
    return low..<max(high, low)
  }

  private static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

  /// `bytes` as text: valid UTF-8 printable characters kept, backslash doubled, control and
  /// invalid bytes escaped (`\n`, `\t`, `\r`, `\xHH`), so an excerpt never spans lines or
  /// carries terminal escapes.
  package static func render(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var output = ""
    output.reserveCapacity(bytes.count + 8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte >= 0x20 && byte < 0x7F {
        if byte == UInt8(ascii: "\\") {
          output += "\\\\"
        } else {
          output.unicodeScalars.append(Unicode.Scalar(byte))
        }
        index += 1
      } else if byte == 0x0A {
        output += "\\n"
        index += 1
      } else if byte == 0x09 {
        output += "\\t"
        index += 1
      } else if byte == 0x0D {
        output += "\\r"
        index += 1
      } else if byte >= 0x80, let (scalar, length) = decodeScalar(bytes, at: index), scalar.value >= 0xA0 {
        output.unicodeScalars.append(scalar)
        index += length
      } else {
        output += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        index += 1
      }
    }
    return output
  }

  /// The scalar encoded at `index` when it is well-formed, shortest-form UTF-8.
  private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (
    Unicode.Scalar, Int
  )? {
    let lead = bytes[index]
    let length: Int
    var value: UInt32
    switch lead {
    case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
    default: return nil
    }
    guard index + length <= bytes.count else { return nil }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    let minimum: UInt32 = [0, 0, 0x80, 0x800, 0x10000][length]
    guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

/// A stretch of text that may hold encoded bytes: found by ``EncodedRun/next(in:from:lower:end:)``
/// and handed to each ``RunDecoder`` of its class.
struct EncodedRun {
  /// The characters a run is made of.
  enum Kind {
    /// Letters, digits and `+/=_-`: base64, base64url, plain hex (and `\` of a JSON-escaped `\/`,
    /// `%` of percent-encoded base64).
    case base64
    /// Hex digits, `x`, spaces and commas: hex groups (`7b227072 6f66696c`), byte lists
    /// (`123, 34`, `0x7B, 0x22`).
    case numeric
  }

  /// The run's bytes in the text searched.
  var range: Range<Int>
  var kind: Kind

  /// Bit 0: the byte can be part of a base64 run; bit 1: of a numeric run.
  static let classes: [UInt8] = (0..<256).map { value in
    let byte = UInt8(value)
    let folded = byte | 0x20
    let isDigit = byte >= 0x30 && byte <= 0x39
    let isLetter = folded >= 0x61 && folded <= 0x7A
    var bits: UInt8 = 0
    if isDigit || isLetter || "+/=_-\\%".utf8.contains(byte) { bits |= 1 }
    if isDigit || (folded >= 0x61 && folded <= 0x66) || folded == 0x78 || byte == 0x20 || byte == 0x2C {
      bits |= 2
    }
    return bits
  }

  /// A run is at least this many bytes of one class in a row: every such run is found.
  static let blockLength = 16

  /// The first run in `text[lower..<end]` holding a whole block at or after `from`; it reaches
  /// back to `lower` at most, and forward to `end`. A window of one block is tested from its last
  /// byte backwards, the classes of its bytes intersected: at the first byte that leaves no class
  /// in common, no block can start at or before it, so the search moves past it (in text with
  /// short words, about one block at a time for a few lookups).
  static func next(in text: UnsafePointer<UInt8>, from: Int, lower: Int, end: Int) -> EncodedRun? {
    classes.withUnsafeBufferPointer { classes in
      var index = from
      while index + blockLength <= end {
        var mask: UInt8 = 3
        var probe = index + blockLength - 1
        while probe >= index {
          mask &= classes[Int(text[probe])]
          if mask == 0 { break }
          probe -= 1
        }
        if mask == 0 {
          index = probe + 1
          continue
        }
        // One class holds for a whole block: expand it; prefer the longer reading.
        let numericRun =
          mask & 2 != 0 ? expand(text, block: index, bit: 2, lower: lower, end: end, classes) : nil
        let base64Run =
          mask & 1 != 0 ? expand(text, block: index, bit: 1, lower: lower, end: end, classes) : nil
        if let numericRun, base64Run == nil || base64Run!.count <= numericRun.count {
          return EncodedRun(range: numericRun, kind: .numeric)
        }
        return EncodedRun(range: base64Run!, kind: .base64)
      }
      return nil
    }
  }

  private static func expand(
    _ text: UnsafePointer<UInt8>, block: Int, bit: UInt8, lower: Int, end: Int,
    _ classes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int> {
    var low = block
    while low > lower && classes[Int(text[low - 1])] & bit != 0 { low -= 1 }
    var high = block + blockLength
    while high < end && classes[Int(text[high])] & bit != 0 { high += 1 }
    return low..<high
  }
}

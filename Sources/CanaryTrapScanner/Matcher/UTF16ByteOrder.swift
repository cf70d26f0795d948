extension CompiledMatcher {
  /// Whether a big-endian UTF-16 match of `literal` at `start` gives way to a little-endian
  /// reading of the same text.
  ///
  /// ASCII in UTF-16 is a character byte and a zero byte, so little-endian text read one byte
  /// early is big-endian text: `a\0b\0c\0` holds both `\0b\0c` (big-endian) and `b\0c\0`
  /// (little-endian). When the bytes one later also spell the value little-endian, the match is
  /// reported once, as little-endian, the order of nearly every UTF-16 text on disk today.
  func yieldsToLittleEndian(
    literal: UnsafePointer<UInt8>, length: Int, start: Int, in text: UnsafePointer<UInt8>, count: Int
  ) -> Bool {
    guard reportsUTF16LE, start + 1 + length <= count else { return false }
    var index = 0
    while index + 1 < length {
      guard text[start + 1 + index] == literal[index + 1], text[start + 2 + index] == literal[index] else {
        return false
      }
      index += 2
    }
    return true
  }
}

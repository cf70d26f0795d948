/// The one percent decoder of the package: the server's `RecordedRequest.queryItems` and
/// `RecordedRequest.formFields` and the delivery proof read escapes with it, so what a test sees
/// in the record and what the proof counts as delivered cannot disagree.
package enum PercentDecoding {
  /// `text` percent-decoded (and `+` as a space when `plusIsSpace`); when a `%` escape is not two
  /// hex digits or the decoded bytes are not UTF-8, the text with only `+` replaced, as
  /// Foundation's `removingPercentEncoding` does, without its cost.
  package static func decode<Text: StringProtocol>(_ text: Text, plusIsSpace: Bool = false) -> String {
    let plus = UInt8(ascii: "+")
    let bytes = Array(text.utf8)
    guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == plus) }) else {
      return String(text)
    }
    let (decoded, allEscapesValid) = decodingEscapes(bytes, plusIsSpace: plusIsSpace)
    if allEscapesValid {
      let string = String(decoding: decoded, as: UTF8.self)
      // Decoding repairs invalid UTF-8 with U+FFFD, so a round trip that changes the bytes means
      // they were not UTF-8.
      if string.utf8.elementsEqual(decoded) { return string }
    }
    return String(decoding: bytes.map { plusIsSpace && $0 == plus ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
  }

  /// `raw` with every `%XX` escape of two hex digits decoded (and `+` as a space when
  /// `plusIsSpace`), byte by byte: an escape that is not two hex digits stays as it is and the
  /// result need not be UTF-8, so neither a bad escape nor a binary body hides the other escapes.
  package static func decodedBytes(_ raw: some Sequence<UInt8>, plusIsSpace: Bool) -> [UInt8] {
    decodingEscapes(Array(raw), plusIsSpace: plusIsSpace).bytes
  }

  /// The `name=value` pairs of `a=1&b=2` text, each side decoded; empty pairs are skipped and a
  /// pair without `=` has an empty value.
  package static func pairs(_ text: some StringProtocol, plusIsSpace: Bool) -> [(name: String, value: String)]
  {
    text.split(separator: "&").map { pair($0, plusIsSpace: plusIsSpace) }
  }

  /// One `name=value` pair, each side decoded.
  package static func pair(_ item: some StringProtocol, plusIsSpace: Bool) -> (name: String, value: String) {
    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    let name = decode(parts[0], plusIsSpace: plusIsSpace)
    let value = parts.count > 1 ? decode(parts[1], plusIsSpace: plusIsSpace) : ""
    return (name, value)
  }

  /// `bytes` with every `%XX` escape of two hex digits decoded (and `+` as a space when
  /// `plusIsSpace`), other bytes kept, and whether every `%` began such an escape.
  private static func decodingEscapes(_ bytes: [UInt8], plusIsSpace: Bool) -> (bytes: [UInt8], allValid: Bool)
  {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var allValid = true
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
          let low = hexValue(bytes[index + 2])
        {
          out.append(high << 4 | low)
          index += 3
          continue
        }
        allValid = false
      }
      out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index += 1
    }
    return (out, allValid)
  }

  /// The value of one hex digit, or nil.
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

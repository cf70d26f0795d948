/// A strict JSON parser for the documents CanaryTrap reads most (a manifest of 100,000 canaries
/// is 10 MB): about twenty times faster than decoding ``JSONValue`` through `JSONDecoder`.
///
/// It gives up (returns `nil`) on anything it does not read exactly as `JSONDecoder` does: a
/// syntax error, a duplicate key, a lone surrogate escape, a number out of `Double`'s range,
/// deep nesting or a byte order mark. The caller then decodes with `JSONDecoder`, which names
/// the error, so what a document means and what an error says never depend on this parser.
enum FastJSONParser {
  /// The deepest nesting parsed here; deeper documents go to `JSONDecoder`.
  static let maximumDepth = 64

  /// The value `bytes` hold, or `nil` when `JSONDecoder` must decide.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
    var parser = Parser(bytes: bytes)
    guard let value = parser.value(depth: 0) else { return nil }
    parser.skipWhitespace()
    return parser.index == bytes.count ? value : nil
  }

  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    mutating func value(depth: Int) -> JSONValue? {
      skipWhitespace()
      guard index < bytes.count, depth < FastJSONParser.maximumDepth else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return array(depth: depth)
      case UInt8(ascii: "\""): return string().map(JSONValue.string)
      case UInt8(ascii: "t"): return literal("true", .bool(true))
      case UInt8(ascii: "f"): return literal("false", .bool(false))
      case UInt8(ascii: "n"): return literal("null", .null)
      default: return number()
      }
    }

    mutating func object(depth: Int) -> JSONValue? {
      index += 1
      var fields: [String: JSONValue] = [:]
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(fields)
      }
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let value = value(depth: depth + 1), fields.updateValue(value, forKey: key) == nil else {
          return nil
        }
        skipWhitespace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { return nil }
        index += 1
        return .object(fields)
      }
    }

    mutating func array(depth: Int) -> JSONValue? {
      index += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        guard let element = value(depth: depth + 1) else { return nil }
        elements.append(element)
        skipWhitespace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { return nil }
        index += 1
        return .array(elements)
      }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
      let count = word.utf8CodeUnitCount
      guard index + count <= bytes.count else { return nil }
      for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
      index += count
      return value
    }

    /// A number as RFC 8259 writes it, converted as `JSONDecoder` does; `nil` out of range.
    mutating func number() -> JSONValue? {
      let start = index
      func digits() -> Int {
        let first = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - first
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else if digits() == 0 {
        return nil
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { return nil }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
          index += 1
        }
        guard digits() > 0 else { return nil }
      }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      guard let number = Double(text), number.isFinite else { return nil }
      return .number(number)
    }

    /// A string at `index` (its opening quote), escapes resolved; `nil` for a control character,
    /// a bad escape or a lone surrogate.
    mutating func string() -> String? {
      index += 1
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
          index += 1
          return text
        }
        if byte == UInt8(ascii: "\\") { break }
        if byte < 0x20 { return nil }
        index += 1
      }
      var decoded = Array(bytes[start..<index])
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return String(decoding: decoded, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { return nil }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
          case UInt8(ascii: "b"): decoded.append(0x08)
          case UInt8(ascii: "f"): decoded.append(0x0C)
          case UInt8(ascii: "n"): decoded.append(0x0A)
          case UInt8(ascii: "r"): decoded.append(0x0D)
          case UInt8(ascii: "t"): decoded.append(0x09)
          case UInt8(ascii: "u"):
            guard let scalar = unicodeEscape() else { return nil }
            decoded += Array(String(Character(scalar)).utf8)
          default: return nil
          }
        default:
          if byte < 0x20 { return nil }
          decoded.append(byte)
        }
      }
      return nil
    }

    /// The scalar of `\uXXXX` (after the `u`), reading the low half of a surrogate pair too.
    mutating func unicodeEscape() -> Unicode.Scalar? {
      guard let unit = hexUnit() else { return nil }
      if (0xD800..<0xDC00).contains(unit) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { return nil }
        index += 2
        guard let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      }
      return Unicode.Scalar(unit)
    }

    mutating func hexUnit() -> UInt32? {
      guard index + 4 <= bytes.count else { return nil }
      var unit: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        index += 1
        let digit: UInt8
        switch byte {
        case 0x30...0x39: digit = byte - 0x30
        case 0x41...0x46: digit = byte - 0x41 + 10
        case 0x61...0x66: digit = byte - 0x61 + 10
        default: return nil
        }
        unit = unit << 4 | UInt32(digit)
      }
      return unit
    }
  }
}

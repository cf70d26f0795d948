import Foundation

/// Finds a key that occurs twice in one JSON object. `JSONDecoder` keeps one of the two silently
/// (a POST whose second `parameters` member held its `token` lost it, exit 0 even with
/// `--strict`), and JSON readers disagree on which, so an imported document with one is refused,
/// naming where.
enum JSONDuplicateKeys {
  /// A repeated key: the JSON pointer of its second occurrence, and the key.
  struct Duplicate: Equatable {
    var pointer: String
    var key: String
  }

  /// The first repeated key in `data`, which must already be valid JSON nested no deeper than a
  /// few hundred levels (``ImportCollector/decode(_:limits:what:)`` checks both first).
  static func first(in data: Data) -> Duplicate? {
    data.withUnsafeBytes { raw in
      var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
      return scanner.value(at: "")
    }
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    mutating func value(at pointer: String) -> Duplicate? {
      skipWhitespace()
      switch current {
      case UInt8(ascii: "{"): return object(at: pointer)
      case UInt8(ascii: "["): return array(at: pointer)
      case UInt8(ascii: "\""):
        _ = string()
        return nil
      default:
        // A number or a literal: up to the next delimiter.
        while let byte = current, !",]} \t\r\n".utf8.contains(byte) { index += 1 }
        return nil
      }
    }

    mutating func object(at pointer: String) -> Duplicate? {
      index += 1
      var keys = Set<String>()
      while true {
        skipWhitespace()
        guard let byte = current, byte != UInt8(ascii: "}") else {
          index += 1
          return nil
        }
        if byte == UInt8(ascii: ",") {
          index += 1
          continue
        }
        let key = string()
        let child = JSONPointer.child(pointer, key)
        if !keys.insert(key).inserted { return Duplicate(pointer: child, key: key) }
        skipWhitespace()
        index += 1  // the colon
        if let found = value(at: child) { return found }
      }
    }

    mutating func array(at pointer: String) -> Duplicate? {
      index += 1
      var element = 0
      while true {
        skipWhitespace()
        guard let byte = current, byte != UInt8(ascii: "]") else {
          index += 1
          return nil
        }
        if byte == UInt8(ascii: ",") {
          index += 1
          element += 1
          continue
        }
        if let found = value(at: "\(pointer)/\(element)") { return found }
      }
    }

    /// The string at `index` (its opening quote), escapes decoded, so `"a"` and `"\u0061"` are
    /// the same key.
    mutating func string() -> String {
      index += 1
      var text: [UInt8] = []
      var pendingHigh: UInt32?
      while let byte = current, byte != UInt8(ascii: "\"") {
        index += 1
        guard byte == UInt8(ascii: "\\"), let escaped = current else {
          text.append(byte)
          continue
        }
        index += 1
        switch escaped {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          let end = min(bytes.count, index + 4)
          let unit = UInt32(String(decoding: bytes[index..<end], as: UTF8.self), radix: 16) ?? 0xFFFD
          index = end
          if (0xD800..<0xDC00).contains(unit) {
            pendingHigh = unit
            continue
          }
          var scalarValue = unit
          if let high = pendingHigh, (0xDC00..<0xE000).contains(unit) {
            scalarValue = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
          }
          pendingHigh = nil
          UTF8.encode(Unicode.Scalar(scalarValue) ?? "\u{FFFD}") { text.append($0) }
        default: text.append(escaped)
        }
      }
      index += 1
      return String(decoding: text, as: UTF8.self)
    }
  }
}

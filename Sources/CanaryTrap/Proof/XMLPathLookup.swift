/// Reads the values at a simple XML path (`order/item/name`, `order/item/@id`) out of an XML
/// document, as the delivery proof of ``CanaryLocation/BodyPart/xml(_:)`` needs: element text
/// (direct character data and CDATA, entities decoded) and attribute values. Bounded: it stops at
/// 64 levels of nesting and 100,000 elements, and reads no DTD.
enum XMLPathLookup {
  static let maxDepth = 64
  static let maxElements = 100_000

  /// Every value at `path` in `document`, in document order.
  static func values(at path: String, in document: [UInt8]) -> [String] {
    var reader = Reader(bytes: document)
    return reader.values(at: path)
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    mutating func values(at target: String) -> [String] {
      var stack: [(path: String, text: [UInt8])] = []
      var found: [String] = []
      var elements = 0
      while index < bytes.count {
        if bytes[index] != UInt8(ascii: "<") {
          let start = index
          while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
          if !stack.isEmpty { stack[stack.count - 1].text += bytes[start..<index] }
          continue
        }
        if take("<![CDATA[") {
          let start = index
          guard let end = find("]]>") else { return found }
          if !stack.isEmpty { stack[stack.count - 1].text += Self.escapedCDATA(bytes[start..<end]) }
          index = end + 3
        } else if take("<!--") {
          guard let end = find("-->") else { return found }
          index = end + 3
        } else if take("<?") || take("<!") {
          guard let end = find(">") else { return found }
          index = end + 1
        } else if take("</") {
          guard let end = find(">") else { return found }
          index = end + 1
          guard let element = stack.popLast() else { return found }
          if element.path == target { found.append(Self.decoded(element.text)) }
        } else {
          index += 1
          guard let (name, attributes, selfClosing) = readTag() else { return found }
          elements += 1
          guard elements <= XMLPathLookup.maxElements, stack.count < XMLPathLookup.maxDepth else {
            return found
          }
          let path = stack.last.map { "\($0.path)/\(name)" } ?? name
          for (attribute, value) in attributes where "\(path)/@\(attribute)" == target {
            found.append(Self.decoded(value))
          }
          if selfClosing {
            if path == target { found.append("") }
          } else {
            stack.append((path, []))
          }
        }
      }
      return found
    }

    /// Reads `name attr="v" …>` after the `<`.
    private mutating func readTag() -> (String, [(String, [UInt8])], Bool)? {
      let name = readName()
      guard !name.isEmpty else { return nil }
      var attributes: [(String, [UInt8])] = []
      while index < bytes.count {
        skipSpace()
        if take("/>") { return (name, attributes, true) }
        if take(">") { return (name, attributes, false) }
        let attribute = readName()
        skipSpace()
        guard !attribute.isEmpty, take("=") else { return nil }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
        else { return nil }
        let quote = bytes[index]
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != quote { index += 1 }
        guard index < bytes.count else { return nil }
        attributes.append((attribute, Array(bytes[start..<index])))
        index += 1
      }
      return nil
    }

    private mutating func readName() -> String {
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
          || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
          || byte == UInt8(ascii: "=")
        {
          break
        }
        index += 1
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipSpace() {
      while index < bytes.count,
        [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[index])
      {
        index += 1
      }
    }

    private mutating func take(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard index + count <= bytes.count else { return false }
      let matches = literal.withUTF8Buffer { buffer in
        (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] }
      }
      if matches { index += count }
      return matches
    }

    private func find(_ literal: StaticString) -> Int? {
      let count = literal.utf8CodeUnitCount
      return literal.withUTF8Buffer { buffer in
        var at = index
        while at + count <= bytes.count {
          if (0..<count).allSatisfy({ bytes[at + $0] == buffer[$0] }) { return at }
          at += 1
        }
        return nil
      }
    }

    /// CDATA text escaped, so decoding it later gives it back unchanged.
    private static func escapedCDATA(_ text: ArraySlice<UInt8>) -> [UInt8] {
      Array(XMLText.escaped(String(decoding: text, as: UTF8.self)).utf8)
    }

    /// Text with the five predefined entities and numeric references decoded.
    static func decoded(_ raw: [UInt8]) -> String {
      let text = String(decoding: raw, as: UTF8.self)
      guard text.contains("&") else { return text }
      var out = ""
      var rest = Substring(text)
      while let amp = rest.firstIndex(of: "&") {
        out += rest[..<amp]
        guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
          out += "&"
          rest = rest[rest.index(after: amp)...]
          continue
        }
        let entity = rest[rest.index(after: amp)..<semicolon]
        if let scalar = XMLText.entity(entity) {
          out.unicodeScalars.append(scalar)
        } else {
          out += rest[amp...semicolon]
        }
        rest = rest[rest.index(after: semicolon)...]
      }
      return out + rest
    }
  }
}

/// XML text escaping, for element text and attribute values.
enum XMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(character)
      }
    }
    return out
  }

  /// The scalar an entity (`amp`, `#38`, `#x26`) stands for.
  static func entity(_ name: Substring) -> Unicode.Scalar? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let value =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      return value.flatMap(Unicode.Scalar.init)
    }
  }
}

import Foundation

/// The items of an upload's decoded body, so that a finding names the item it was in: a Sentry
/// envelope's items, the lines of newline-delimited JSON, the elements of a JSON array.
enum IngestItems {
  /// One item: its label in findings (`item 2 (event)`) and its bytes.
  struct Item: Equatable {
    var label: String
    var bytes: Data
  }

  /// The most items one body is split into (a batch of 256 events is named event by event); the
  /// rest of the body is scanned as one last item, so a large batch stays a few hundred sources.
  static let maxItems = 256

  /// The items of `body`, or nil when it is none of the formats split (it is scanned whole).
  static func split(_ body: Data, contentType: String?, path: String) -> [Item]? {
    let type = contentType?.lowercased() ?? ""
    let bytes = [UInt8](body)
    if type.contains("x-sentry-envelope") || path.hasSuffix("/envelope/") || path.hasSuffix("/envelope") {
      return envelope(bytes)
    }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return nil }
    if type.contains("ndjson") || type.contains("jsonl") || type.contains("jsonlines")
      || (bytes[first] == UInt8(ascii: "{") && containsLineStartingObject(bytes, after: first))
    {
      return lines(bytes)
    }
    if bytes[first] == UInt8(ascii: "[") { return jsonArray(bytes, from: first) }
    return nil
  }

  /// A Sentry envelope: a header line, then items, each a header line whose `type` names it and
  /// whose `length`, when present, gives its payload's size (else the payload ends at a newline).
  static func envelope(_ bytes: [UInt8]) -> [Item]? {
    guard let headerEnd = bytes.firstIndex(of: 0x0A) ?? (bytes.isEmpty ? nil : bytes.endIndex) else {
      return nil
    }
    var items = [Item(label: "envelope header", bytes: Data(bytes[..<headerEnd]))]
    var position = min(headerEnd + 1, bytes.count)
    while position < bytes.count {
      if bytes[position] == 0x0A {
        position += 1
        continue
      }
      let lineEnd = bytes[position...].firstIndex(of: 0x0A) ?? bytes.endIndex
      let header = Data(bytes[position..<lineEnd])
      let number = items.count
      guard case .object(let fields)? = JSONValue.parse(header), number <= maxItems else {
        items.append(Item(label: "item \(number) (unreadable)", bytes: Data(bytes[position...])))
        return items
      }
      var type = "untyped"
      if case .string(let name)? = fields["type"] { type = sanitized(name) }
      var payloadStart = min(lineEnd + 1, bytes.count)
      var payloadEnd: Int
      if case .number(let number)? = fields["length"], let length = Int(exactly: number), length >= 0 {
        payloadEnd = min(payloadStart + length, bytes.count)
      } else {
        payloadEnd = bytes[payloadStart...].firstIndex(of: 0x0A) ?? bytes.endIndex
      }
      if payloadStart > payloadEnd { payloadStart = payloadEnd }
      items.append(
        Item(
          label: "item \(number) (\(type))", bytes: header + [0x0A] + Data(bytes[payloadStart..<payloadEnd])))
      position = payloadEnd
    }
    return items
  }

  /// Newline-delimited JSON: one item per non-empty line.
  static func lines(_ bytes: [UInt8]) -> [Item] {
    var items: [Item] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
      if bytes[start..<end].contains(where: { !isSpace($0) }) {
        if items.count == maxItems {
          items.append(Item(label: "item \(items.count + 1) and after", bytes: Data(bytes[start...])))
          return items
        }
        items.append(Item(label: "item \(items.count + 1)", bytes: Data(bytes[start..<end])))
      }
      start = end + 1
    }
    return items
  }

  /// A JSON array's elements, cut at its top-level commas; nil when it does not close.
  static func jsonArray(_ bytes: [UInt8], from open: Int) -> [Item]? {
    var items: [Item] = []
    var depth = 0
    var inString = false
    var escaped = false
    var elementStart = open + 1
    for index in open..<bytes.count {
      let byte = bytes[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
        if depth == 0 {
          append(bytes[elementStart..<index], to: &items)
          return items + trailing(bytes, after: index + 1)
        }
      case UInt8(ascii: ","):
        if depth == 1 {
          if items.count == maxItems {
            items.append(
              Item(label: "item \(items.count + 1) and after", bytes: Data(bytes[elementStart...])))
            return items
          }
          append(bytes[elementStart..<index], to: &items)
          elementStart = index + 1
        }
      default: break
      }
    }
    return nil
  }

  /// Appends a non-blank element as the next item.
  private static func append(_ element: ArraySlice<UInt8>, to items: inout [Item]) {
    guard element.contains(where: { !isSpace($0) }) else { return }
    items.append(Item(label: "item \(items.count + 1)", bytes: Data(element)))
  }

  /// Whatever follows a closed array that is not whitespace, as one item, so nothing goes unscanned.
  private static func trailing(_ bytes: [UInt8], after end: Int) -> [Item] {
    guard end < bytes.count, bytes[end...].contains(where: { !isSpace($0) }) else { return [] }
    return [Item(label: "after the array", bytes: Data(bytes[end...]))]
  }

  /// Whether a later line starts with `{` at its first byte: newline-delimited objects rather
  /// than one object (pretty-printed JSON indents what it nests).
  private static func containsLineStartingObject(_ bytes: [UInt8], after first: Int) -> Bool {
    var index = first
    while let newline = bytes[index...].firstIndex(of: 0x0A), newline + 1 < bytes.count {
      if bytes[newline + 1] == UInt8(ascii: "{") { return true }
      index = newline + 1
    }
    return false
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// An item type as a finding may name it: letters, digits, `_` and `-`, at most 32 of them.
  private static func sanitized(_ type: String) -> String {
    let kept = type.unicodeScalars.filter {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" || $0 == "-"
    }
    let text = String(String.UnicodeScalarView(kept.prefix(32)))
    return text.isEmpty ? "untyped" : text
  }
}

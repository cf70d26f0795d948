/// One JSON object written as a single line, built by hand: the record of `canary serve` is written
/// on the server's I/O thread, where a `JSONEncoder` per request would cost more than the request.
struct ServeRecordLine {
  private(set) var text = "{"
  private var isEmpty = true

  /// Adds `"name":"value"` with `value` escaped as JSON requires.
  mutating func add(_ name: String, _ value: String) {
    key(name)
    Self.appendString(value, to: &text)
  }

  /// Adds `"name":value` for a number.
  mutating func add(_ name: String, _ value: Int) {
    key(name)
    text += String(value)
  }

  /// Adds `"name":true` or `false`.
  mutating func add(_ name: String, _ value: Bool) {
    key(name)
    text += value ? "true" : "false"
  }

  /// Adds `"name":` followed by JSON already formed (an array or object).
  mutating func add(_ name: String, json: String) {
    key(name)
    text += json
  }

  /// The object, closed, with a trailing newline.
  var line: String { text + "}\n" }

  /// The object, closed, without a newline (to nest it).
  var object: String { text + "}" }

  private mutating func key(_ name: String) {
    if !isEmpty { text += "," }
    isEmpty = false
    Self.appendString(name, to: &text)
    text += ":"
  }

  /// `values` as a JSON array of numbers.
  static func array(_ values: [Int]) -> String {
    "[" + values.map(String.init).joined(separator: ",") + "]"
  }

  /// Appends `value` as a JSON string literal.
  static func appendString(_ value: String, to text: inout String) {
    text += "\""
    var plainStart = value.unicodeScalars.startIndex
    var index = plainStart
    let scalars = value.unicodeScalars
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let escape: String?
      switch scalar {
      case "\"": escape = "\\\""
      case "\\": escape = "\\\\"
      case "\n": escape = "\\n"
      case "\r": escape = "\\r"
      case "\t": escape = "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
        let hex = String(scalar.value, radix: 16)
        escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escape = nil
      }
      if let escape {
        text.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
        text += escape
        plainStart = scalars.index(after: index)
      }
      index = scalars.index(after: index)
    }
    text.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
    text += "\""
  }
}

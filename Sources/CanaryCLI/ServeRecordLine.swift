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

  /// Appends `value` as a JSON string literal, escaped into a byte array reserved once (appending
  /// each plain run to the string itself reallocated it per escape: quadratic on binary bodies).
  static func appendString(_ value: String, to text: inout String) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(value.utf8.count + 2)
    bytes.append(UInt8(ascii: "\""))
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": bytes += Array("\\\"".utf8)
      case "\\": bytes += Array("\\\\".utf8)
      case "\n": bytes += Array("\\n".utf8)
      case "\r": bytes += Array("\\r".utf8)
      case "\t": bytes += Array("\\t".utf8)
      case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
        let hex = String(scalar.value, radix: 16)
        bytes += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
      default: UTF8.encode(scalar) { bytes.append($0) }
      }
    }
    bytes.append(UInt8(ascii: "\""))
    text += String(decoding: bytes, as: UTF8.self)
  }
}

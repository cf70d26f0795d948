extension String {
  /// The string made safe for XML and HTML text and attribute values: `&`, `<`, `>`, `"` and `'`
  /// become entities, and characters XML 1.0 cannot hold at all (most control characters, U+FFFE,
  /// U+FFFF) become the visible text `\u{XX}`.
  var markupEscaped: String {
    var result = ""
    result.reserveCapacity(utf8.count)
    for scalar in unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE
          || scalar.value == 0xFFFF
        {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}

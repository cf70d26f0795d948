import Foundation

/// Parses header values with parameters such as `form-data; name="a"; filename*=UTF-8''%E2%82%AC`.
enum HeaderParameters {
  /// The leading value (`form-data`) and the parameters with lower-cased names, in order.
  static func parse(_ header: String) -> (value: String, parameters: [(name: String, value: String)]) {
    let characters = Array(header)
    var index = 0
    func skipSpaces() {
      while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
    }
    var leading = ""
    while index < characters.count, characters[index] != ";" {
      leading.append(characters[index])
      index += 1
    }
    var parameters: [(name: String, value: String)] = []
    while index < characters.count {
      index += 1  // skip ';'
      skipSpaces()
      var name = ""
      while index < characters.count, characters[index] != "=", characters[index] != ";" {
        name.append(characters[index])
        index += 1
      }
      var value = ""
      if index < characters.count, characters[index] == "=" {
        index += 1
        skipSpaces()
        if index < characters.count, characters[index] == "\"" {
          index += 1
          while index < characters.count, characters[index] != "\"" {
            if characters[index] == "\\", index + 1 < characters.count { index += 1 }
            value.append(characters[index])
            index += 1
          }
          while index < characters.count, characters[index] != ";" { index += 1 }
        } else {
          while index < characters.count, characters[index] != ";" {
            value.append(characters[index])
            index += 1
          }
          value = value.trimmingSpaces
        }
      }
      let trimmedName = name.trimmingSpaces.lowercased()
      if !trimmedName.isEmpty { parameters.append((trimmedName, value)) }
    }
    return (leading.trimmingSpaces, parameters)
  }

  /// Decodes an RFC 8187 extended value such as `UTF-8''%E2%82%AC.txt` (language tag ignored).
  static func decodeExtendedValue(_ value: String) -> String {
    let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
    guard pieces.count == 3 else { return value.removingPercentEncoding ?? value }
    let encoded = String(pieces[2])
    if pieces[0].lowercased() == "iso-8859-1" {
      var bytes: [UInt8] = []
      var utf8 = Array(encoded.utf8)[...]
      while let byte = utf8.popFirst() {
        if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = HTTPBytes.hexValue(utf8.first!),
          let low = HTTPBytes.hexValue(utf8.dropFirst().first!)
        {
          bytes.append(UInt8(high * 16 + low))
          utf8 = utf8.dropFirst(2)
        } else {
          bytes.append(byte)
        }
      }
      return String(bytes.map { Character(Unicode.Scalar($0)) })
    }
    return encoded.removingPercentEncoding ?? encoded
  }
}

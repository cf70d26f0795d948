import Foundation
import ServerTestSupport

/// Encoders written apart from `PatternEncoder`, or taken from Foundation and from real tools, that
/// make the expected bytes of the scanner's oracle tests: a bug in the scanner's own encoders can
/// not hide in both. Each names the encoding the scanner should report for it.
///
/// Nothing here reads the scanner's pattern list.
enum IndependentEncoders {
  /// One way a sink could hold a value: the bytes and the name of the encoding that explains them.
  struct Literal: Sendable, CustomStringConvertible {
    var encoding: String
    var variant: String
    var bytes: [UInt8]
    var description: String { "\(encoding)/\(variant)" }
  }

  /// RFC 3986 unreserved characters.
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// Percent-encoding with `allowed` kept, through Foundation.
  static func percent(_ value: String, keeping allowed: CharacterSet) -> String {
    value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }

  /// WHATWG form encoding written out by hand: alphanumerics and `*-._` kept, space as `+`.
  static func form(_ value: String) -> String {
    var output = ""
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"):
        output.append(Character(Unicode.Scalar(byte)))
      case UInt8(ascii: " "): output += "+"
      default: output += String(format: "%%%02X", byte)
      }
    }
    return output
  }

  /// A JSON string literal's inside, as Foundation's `JSONEncoder` writes it.
  static func jsonEncoder(_ value: String, escapingSlashes: Bool) -> String {
    let encoder = JSONEncoder()
    if !escapingSlashes { encoder.outputFormatting = [.withoutEscapingSlashes] }
    let quoted = String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    return String(quoted.dropFirst().dropLast())
  }

  /// JSON with every non-ASCII scalar and `<>&` as `\uXXXX` (as Go and JavaScript's safe
  /// encoders write it), by hand.
  static func jsonASCII(_ value: String) -> String {
    var output = ""
    for unit in value.utf16 {
      switch unit {
      case 0x22: output += "\\\""
      case 0x5C: output += "\\\\"
      case 0x3C, 0x3E, 0x26: output += String(format: "\\u%04x", unit)
      case 0x20..<0x7F: output.append(Character(Unicode.Scalar(unit)!))
      default: output += String(format: "\\u%04x", unit)
      }
    }
    return output
  }

  /// HTML escaping of `&<>"'` with named references, by hand.
  static func htmlNamed(_ value: String) -> String {
    var output = ""
    for character in value {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.append(character)
      }
    }
    return output
  }

  /// HTML escaping with every special or non-ASCII scalar as a decimal reference, by hand.
  static func htmlDecimal(_ value: String) -> String {
    var output = ""
    for scalar in value.unicodeScalars {
      if "&<>\"'".unicodeScalars.contains(scalar) || !scalar.isASCII {
        output += "&#\(scalar.value);"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// Hex digits of every byte.
  static func hex(_ bytes: [UInt8], uppercase: Bool) -> String {
    bytes.map { String(format: uppercase ? "%02X" : "%02x", $0) }.joined()
  }

  /// Foundation's base64 of `prefix` followed by `value`: the value at each byte alignment, as
  /// inside `Authorization: Basic` (`user:` + password) or a token embedding it.
  static func base64(_ value: String, after prefix: String, url: Bool = false) -> String {
    let encoded = Data((prefix + value).utf8).base64EncodedString()
    guard url else { return encoded }
    return
      encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Every encoding of `value` that needs no external tool.
  static func literals(of value: String) -> [Literal] {
    func literal(_ encoding: String, _ variant: String, _ text: String) -> Literal {
      Literal(encoding: encoding, variant: variant, bytes: Array(text.utf8))
    }
    var result: [Literal] = [
      literal("percent", "unreserved", percent(value, keeping: unreserved)),
      literal("percent", "urlQueryAllowed", percent(value, keeping: .urlQueryAllowed)),
      literal("percent", "urlPathAllowed", percent(value, keeping: .urlPathAllowed)),
      literal("percent", "urlUserAllowed", percent(value, keeping: .urlUserAllowed)),
      literal("percent", "lowercase", lowercasedPercentDigits(percent(value, keeping: unreserved))),
      literal("form", "whatwg", form(value)),
      literal(
        "double-percent", "twice",
        percent(percent(value, keeping: unreserved), keeping: unreserved)),
      literal("json-escaped", "JSONEncoder", jsonEncoder(value, escapingSlashes: true)),
      literal("json-escaped", "JSONEncoder without slashes", jsonEncoder(value, escapingSlashes: false)),
      literal("json-escaped", "ascii-only", jsonASCII(value)),
      literal("html-entity", "named", htmlNamed(value)),
      literal("html-entity", "decimal", htmlDecimal(value)),
      literal("hex", "lowercase", hex(Array(value.utf8), uppercase: false)),
      literal("hex", "uppercase", hex(Array(value.utf8), uppercase: true)),
      Literal(
        encoding: "utf16le", variant: "Foundation", bytes: Array(value.data(using: .utf16LittleEndian)!)),
      Literal(encoding: "utf16be", variant: "Foundation", bytes: Array(value.data(using: .utf16BigEndian)!)),
    ]
    for prefix in ["", "u", "u:", "us:"] {
      result.append(literal("base64", "after \(prefix.count) bytes", base64(value, after: prefix)))
      result.append(
        literal("base64url", "after \(prefix.count) bytes", base64(value, after: prefix, url: true)))
    }
    return result
  }

  /// `%xx` digits in lower case.
  static func lowercasedPercentDigits(_ text: String) -> String {
    var output = ""
    var pending = 0
    for character in text {
      if character == "%" {
        pending = 2
        output.append(character)
      } else if pending > 0 {
        pending -= 1
        output += character.lowercased()
      } else {
        output.append(character)
      }
    }
    return output
  }

  /// The digests of `value` from coreutils (`sha256sum`, `sha1sum`, `md5sum`), in hex and base64;
  /// nil when a tool is missing.
  static func digestLiterals(of value: String) -> [Literal]? {
    var result: [Literal] = []
    for (tool, name) in [("sha256sum", "sha256"), ("sha1sum", "sha1"), ("md5sum", "md5")] {
      guard let hexDigest = run(tool, input: Data(value.utf8)) else { return nil }
      let bytes = stride(from: 0, to: hexDigest.count, by: 2).map { offset -> UInt8 in
        let start = hexDigest.index(hexDigest.startIndex, offsetBy: offset)
        return UInt8(hexDigest[start..<hexDigest.index(start, offsetBy: 2)], radix: 16)!
      }
      result.append(Literal(encoding: "\(name)-hex", variant: tool, bytes: Array(hexDigest.utf8)))
      result.append(
        Literal(
          encoding: "\(name)-hex", variant: tool + " uppercase", bytes: Array(hexDigest.uppercased().utf8)))
      result.append(
        Literal(
          encoding: "\(name)-base64", variant: tool, bytes: Array(Data(bytes).base64EncodedString().utf8)))
    }
    return result
  }

  /// The first word of what `tool` prints for `input` on standard input, or nil if it cannot run.
  static func run(_ tool: String, input: Data) -> String? {
    for directory in ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
      let path = directory + "/" + tool
      guard FileManager.default.isExecutableFile(atPath: path) else { continue }
      let process = TestProcess()
      process.executableURL = URL(fileURLWithPath: path)
      let stdin = Pipe()
      let stdout = Pipe()
      process.standardInput = stdin
      process.standardOutput = stdout
      do { try ChildProcessLaunch.run(process) } catch { return nil }
      stdin.fileHandleForWriting.write(input)
      try? stdin.fileHandleForWriting.close()
      let output = stdout.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { return nil }
      return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init)
    }
    return nil
  }
}

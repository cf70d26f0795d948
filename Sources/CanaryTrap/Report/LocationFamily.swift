extension CanaryLocation {
  /// The location with its names and indexes left out, such as `request.header` for
  /// `request.header[X-Session]` or `redirect.location.query` for `redirect[2].location.query[sig]`:
  /// the stable family that groups SARIF rules.
  package var family: String {
    var result = ""
    var depth = 0
    var escaped = false
    for scalar in description.unicodeScalars {
      if depth > 0 {
        if escaped {
          escaped = false
        } else if scalar == "\\" {
          escaped = true
        } else if scalar == "[" {
          depth += 1
        } else if scalar == "]" {
          depth -= 1
        }
        continue
      }
      if scalar == "[" {
        depth = 1
        continue
      }
      let isSafe =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || scalar == "." || scalar == "-" || scalar == "_"
      result.unicodeScalars.append(isSafe ? scalar : "_")
    }
    return result.isEmpty ? "custom" : result
  }
}

/// A hash that is the same in every process and on every platform (unlike `Hasher`), for
/// fingerprints that must not change between runs.
enum StableHash {
  /// The 64-bit FNV-1a hash of the UTF-8 bytes of `text`, as 16 lowercase hex digits.
  static func fnv1a64Hex(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

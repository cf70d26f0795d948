import CanaryTrap

/// What `canary manifest --check` refuses beyond what every reader refuses: values that ordinary
/// HTTP traffic holds anyway (a header name, a media type, a common word), which would be found
/// in every exchange, and values that occur inside another value, whose findings would be the
/// other canary's too (false positives follow).
enum ManifestValueCheck {
  /// Text every HTTP exchange or log is likely to hold, lowercased: header names, media types,
  /// scheme and host words. A value that is one of them, or part of one, is refused.
  static let ordinaryText: [String] = [
    "authorization", "proxy-authorization", "www-authenticate", "content-type", "content-length",
    "content-encoding", "content-disposition", "content-security-policy", "transfer-encoding",
    "accept-encoding", "accept-language", "accept-ranges", "cache-control", "if-none-match",
    "if-modified-since", "last-modified", "x-forwarded-for", "x-forwarded-proto", "x-requested-with",
    "access-control-allow-origin", "access-control-allow-headers", "access-control-allow-methods",
    "strict-transport-security", "sec-websocket-key", "sec-websocket-accept", "sec-websocket-protocol",
    "sec-websocket-version", "upgrade-insecure-requests", "user-agent", "set-cookie", "keep-alive",
    "application/json", "application/json; charset=utf-8", "application/x-www-form-urlencoded",
    "application/octet-stream", "application/xml", "application/javascript", "application/problem+json",
    "multipart/form-data", "text/plain; charset=utf-8", "text/html; charset=utf-8", "text/event-stream",
    "text/javascript", "gzip, deflate, br", "no-cache, no-store, must-revalidate", "http://localhost",
    "https://localhost", "http://127.0.0.1", "https://127.0.0.1", "mozilla/5.0", "bearer token",
    "password123", "administrator", "authentication", "authenticated", "unauthorized",
    "internal server error",
  ]

  /// A value refused, and why, naming the canary indexes.
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  /// The first problem with `values` (one per canary, in manifest order), if any.
  static func problem(in values: [String]) -> Problem? {
    if let ordinary = ordinaryValue(in: values) { return ordinary }
    return containment(in: values)
  }

  private static func ordinaryValue(in values: [String]) -> Problem? {
    for (index, value) in values.enumerated() {
      let lowered = value.lowercased()
      guard let text = ordinaryText.first(where: { $0.contains(lowered) }) else { continue }
      return Problem(
        description:
          "canaries[\(index)].value \"\(value)\" is ordinary HTTP text (\(text == lowered ? "a header name, media type or common word" : "part of \"\(text)\"")): "
          + "it would be found in exchanges that leak nothing; mint values with 'canary manifest'")
    }
    return nil
  }

  /// The first value that occurs inside another (or equals it). Each value is indexed by the
  /// 12-byte window (values are at least that long) that fewest values hold, so values sharing a
  /// prefix (every JWT starts `eyJhbGciOi`) do not all land in one bucket; each position of each
  /// value is then looked up once.
  private static func containment(in values: [String]) -> Problem? {
    let bytes = values.map { Array($0.utf8) }
    let width = CanaryManifest.minimumValueLength
    var frequency: [Window: Int] = [:]
    for value in bytes where value.count >= width {
      for start in 0...(value.count - width) { frequency[Window(value, at: start), default: 0] += 1 }
    }
    var index: [Window: [(value: Int, offset: Int)]] = [:]
    for (number, value) in bytes.enumerated() where value.count >= width {
      let rarest = (0...(value.count - width)).min {
        frequency[Window(value, at: $0)]! < frequency[Window(value, at: $1)]!
      }!
      index[Window(value, at: rarest), default: []].append((number, rarest))
    }
    for (outer, value) in bytes.enumerated() where value.count >= width {
      for start in 0...(value.count - width) {
        guard let candidates = index[Window(value, at: start)] else { continue }
        for (inner, offset) in candidates where inner != outer {
          let needle = bytes[inner]
          let begin = start - offset
          guard begin >= 0, begin + needle.count <= value.count,
            value[begin..<(begin + needle.count)].elementsEqual(needle)
          else { continue }
          if needle.count == value.count {
            let (first, second) = (min(inner, outer), max(inner, outer))
            return Problem(
              description:
                "canaries[\(second)].value is the same as canaries[\(first)].value (\"\(values[first])\"): "
                + "a finding could not say which canary leaked; every value must be distinct")
          }
          return Problem(
            description:
              "canaries[\(outer)].value \"\(values[outer])\" contains canaries[\(inner)].value "
              + "\"\(values[inner])\": every leak of canaries[\(outer)] would also be reported as one of "
              + "canaries[\(inner)]; no value may occur inside another")
        }
      }
    }
    return nil
  }

  /// 12 bytes of a value, packed into two integers to hash.
  private struct Window: Hashable {
    var head: UInt64 = 0
    var tail: UInt32 = 0

    init(_ value: [UInt8], at start: Int) {
      for offset in 0..<8 { head = head << 8 | UInt64(value[start + offset]) }
      for offset in 8..<12 { tail = tail << 8 | UInt32(value[start + offset]) }
    }
  }
}

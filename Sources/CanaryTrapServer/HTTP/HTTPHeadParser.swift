#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses a complete request head (request line and header lines) from its bytes.
///
/// Lines may end with CRLF or, leniently, with a bare LF. Obsolete line folding, a header line
/// without a colon, whitespace before the colon, an empty name and a header line holding NUL or
/// a bare CR are rejected with 400.
enum HTTPHeadParser {
  /// Where one line lies: plain indices, so walking lines copies no slice (an optional tuple
  /// holding a slice went through generic value witnesses on every line).
  struct LineBounds {
    /// The line's first byte.
    var start: Int
    /// Just past the line's last byte, before its LF and one CR before it.
    var end: Int
    /// Where the next line starts (the end of the bytes after the last line).
    var next: Int
    /// Whether the line has no byte.
    var isEmpty: Bool { start == end }
  }

  /// The line of `bytes` that starts at `start`, and where the next line starts; nil at the end.
  static func line(in bytes: ArraySlice<UInt8>, from start: Int) -> LineBounds? {
    guard start < bytes.endIndex else { return nil }
    guard let newline = bytes[start...].firstIndex(of: HTTPBytes.lf) else {
      return LineBounds(start: start, end: bytes.endIndex, next: bytes.endIndex)
    }
    var end = newline
    if end > start && bytes[end - 1] == HTTPBytes.cr { end -= 1 }
    return LineBounds(start: start, end: end, next: newline + 1)
  }

  /// Whether every line of `bytes` from `start` on is empty.
  private static func onlyEmptyLines(_ bytes: ArraySlice<UInt8>, from start: Int) -> Bool {
    var next = start
    while let line = Self.line(in: bytes, from: next) {
      if !line.isEmpty { return false }
      next = line.next
    }
    return true
  }

  /// Parses the head whose bytes end just after the empty line.
  ///
  /// Walks the lines in place: no array of lines or of request-line parts is built, and the
  /// header list is allocated once at its final size. Empty lines at the end are ignored; an
  /// empty line before a later non-empty one is an empty header line.
  static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<ParsedRequestHead, HTTPParseFailure> {
    guard let requestLineBounds = Self.line(in: bytes, from: bytes.startIndex),
      !(requestLineBounds.isEmpty && onlyEmptyLines(bytes, from: requestLineBounds.next))
    else {
      return .failure(failure(.badRequest, "empty request line", bytes))
    }
    let requestLine = bytes[requestLineBounds.start..<requestLineBounds.end]
    let afterRequestLine = requestLineBounds.next
    guard let firstSpace = requestLine.firstIndex(of: HTTPBytes.space),
      let secondSpace = requestLine[(firstSpace + 1)...].firstIndex(of: HTTPBytes.space),
      !requestLine[(secondSpace + 1)...].contains(HTTPBytes.space)
    else {
      return .failure(failure(.badRequest, "malformed request line", bytes))
    }
    let method = requestLine[requestLine.startIndex..<firstSpace]
    let target = requestLine[(firstSpace + 1)..<secondSpace]
    guard !method.isEmpty, !target.isEmpty, method.allSatisfy(HTTPBytes.isTokenCharacter),
      target.allSatisfy({ $0 > 32 && $0 != 127 })
    else {
      return .failure(failure(.badRequest, "malformed request line", bytes))
    }
    let versionBytes = requestLine[(secondSpace + 1)...]
    // The two versions taken are compared as bytes and named by literals: no String is decoded.
    let minor = Self.isHTTP1Prefix(versionBytes) ? versionBytes.last : nil
    let version: String
    if minor == UInt8(ascii: "1") {
      version = "HTTP/1.1"
    } else if minor == UInt8(ascii: "0") {
      version = "HTTP/1.0"
    } else {
      let version = HTTPBytes.string(versionBytes)
      let looksLikeHTTP = version.hasPrefix("HTTP/") && version.count == 8
      return .failure(
        failure(
          looksLikeHTTP ? .versionNotSupported : .badRequest,
          looksLikeHTTP
            ? "unsupported HTTP version \(version)"
            : "malformed request line", bytes))
    }
    if let reason = forbiddenByte(in: bytes[afterRequestLine...]) {
      return .failure(failure(.badRequest, reason, bytes))
    }
    var headers = HTTPHeaders()
    headers.reserveCapacity(
      bytes[afterRequestLine...].withUnsafeBufferPointer { buffer in
        var lines = 0
        for byte in buffer where byte == HTTPBytes.lf { lines &+= 1 }
        return lines
      })
    var next = afterRequestLine
    while let line = Self.line(in: bytes, from: next) {
      if line.isEmpty && onlyEmptyLines(bytes, from: line.next) { break }
      switch parseField(bytes[line.start..<line.end]) {
      case .success(let field): headers.add(field.name, field.value)
      case .failure(let error): return .failure(failure(.badRequest, error.reason, bytes))
      }
      next = line.next
    }
    return .success(
      ParsedRequestHead(
        method: HTTPBytes.string(method), target: HTTPBytes.string(target), version: version,
        headers: headers))
  }

  /// Whether `bytes` is 8 bytes starting with `HTTP/1.`.
  private static func isHTTP1Prefix(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard bytes.count == 8 else { return false }
    let start = bytes.startIndex
    return bytes[start] == UInt8(ascii: "H") && bytes[start + 1] == UInt8(ascii: "T")
      && bytes[start + 2] == UInt8(ascii: "T") && bytes[start + 3] == UInt8(ascii: "P")
      && bytes[start + 4] == UInt8(ascii: "/") && bytes[start + 5] == UInt8(ascii: "1")
      && bytes[start + 6] == UInt8(ascii: ".")
  }

  /// Why header lines hold a byte RFC 9110 §5.5 forbids in a field (NUL, or a CR that does not
  /// end its line), or nil. Searched with `memchr`: once for NUL, once per CR, so a head costs
  /// about one call per line rather than a loop over every byte of every value.
  static func forbiddenByte(in bytes: ArraySlice<UInt8>) -> String? {
    bytes.withUnsafeBufferPointer { buffer -> String? in
      guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
      if memchr(base, 0, buffer.count) != nil { return "NUL in a header line" }
      var offset = 0
      while offset < buffer.count,
        let found = memchr(base + offset, Int32(HTTPBytes.cr), buffer.count - offset)
      {
        let index = UnsafeRawPointer(base).distance(to: found)
        guard index + 1 < buffer.count, buffer[index + 1] == HTTPBytes.lf else {
          return "bare CR in a header line"
        }
        offset = index + 2
      }
      return nil
    }
  }

  /// A header-line problem, as text for the `malformed` reason.
  struct FieldError: Error { var reason: String }

  /// Parses one `Name: value` line; the value is trimmed of spaces and tabs.
  static func parseField(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), FieldError> {
    guard let first = line.first else { return .failure(FieldError(reason: "empty header line")) }
    if first == HTTPBytes.space || first == HTTPBytes.tab {
      return .failure(FieldError(reason: "obsolete header line folding"))
    }
    guard let colon = line.firstIndex(of: HTTPBytes.colon) else {
      return .failure(FieldError(reason: "header line without colon"))
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty else { return .failure(FieldError(reason: "empty header name")) }
    guard name.allSatisfy(HTTPBytes.isTokenCharacter) else {
      return .failure(FieldError(reason: "invalid header name"))
    }
    var value = line[(colon + 1)...]
    while let byte = value.first, byte == HTTPBytes.space || byte == HTTPBytes.tab { value.removeFirst() }
    while let byte = value.last, byte == HTTPBytes.space || byte == HTTPBytes.tab { value.removeLast() }
    return .success((HTTPBytes.string(name), HTTPBytes.string(value)))
  }

  private static func failure(_ outcome: HTTPFailureOutcome, _ reason: String, _ bytes: ArraySlice<UInt8>)
    -> HTTPParseFailure
  {
    HTTPParseFailure(outcome: outcome, reason: reason, head: nil, raw: Array(bytes))
  }
}

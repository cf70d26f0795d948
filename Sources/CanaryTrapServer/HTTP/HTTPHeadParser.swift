/// Parses a complete request head (request line and header lines) from its bytes.
///
/// Lines may end with CRLF or, leniently, with a bare LF. Obsolete line folding, a header line
/// without a colon, whitespace before the colon and an empty name are rejected with 400.
enum HTTPHeadParser {
  /// The line of `bytes` that starts at `start`, without its LF and one CR before it, and where
  /// the next line starts (`bytes.endIndex` after the last line); nil at the end.
  static func line(in bytes: ArraySlice<UInt8>, from start: Int) -> (line: ArraySlice<UInt8>, next: Int)? {
    guard start < bytes.endIndex else { return nil }
    guard let newline = bytes[start...].firstIndex(of: HTTPBytes.lf) else {
      return (bytes[start...], bytes.endIndex)
    }
    var end = newline
    if end > start && bytes[end - 1] == HTTPBytes.cr { end -= 1 }
    return (bytes[start..<end], newline + 1)
  }

  /// Whether every line of `bytes` from `start` on is empty.
  private static func onlyEmptyLines(_ bytes: ArraySlice<UInt8>, from start: Int) -> Bool {
    var next = start
    while let (line, after) = Self.line(in: bytes, from: next) {
      if !line.isEmpty { return false }
      next = after
    }
    return true
  }

  /// Parses the head whose bytes end just after the empty line.
  ///
  /// Walks the lines in place: no array of lines or of request-line parts is built, and the
  /// header list is allocated once at its final size. Empty lines at the end are ignored; an
  /// empty line before a later non-empty one is an empty header line.
  static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<ParsedRequestHead, HTTPParseFailure> {
    guard let (requestLine, afterRequestLine) = Self.line(in: bytes, from: bytes.startIndex),
      !(requestLine.isEmpty && onlyEmptyLines(bytes, from: afterRequestLine))
    else {
      return .failure(failure(.badRequest, "empty request line", bytes))
    }
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
    let minor =
      versionBytes.count == 8 && versionBytes.prefix(7).elementsEqual("HTTP/1.".utf8)
      ? versionBytes.last : nil
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
    var headers = HTTPHeaders()
    headers.reserveCapacity(
      bytes[afterRequestLine...].withUnsafeBufferPointer { buffer in
        var lines = 0
        for byte in buffer where byte == HTTPBytes.lf { lines &+= 1 }
        return lines
      })
    var next = afterRequestLine
    while let (line, after) = Self.line(in: bytes, from: next) {
      if line.isEmpty && onlyEmptyLines(bytes, from: after) { break }
      switch parseField(line) {
      case .success(let field): headers.add(field.name, field.value)
      case .failure(let error): return .failure(failure(.badRequest, error.reason, bytes))
      }
      next = after
    }
    return .success(
      ParsedRequestHead(
        method: HTTPBytes.string(method), target: HTTPBytes.string(target), version: version,
        headers: headers))
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

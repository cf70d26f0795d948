/// Parses a complete request head (request line and header lines) from its bytes.
///
/// Lines may end with CRLF or, leniently, with a bare LF. Obsolete line folding, a header line
/// without a colon, whitespace before the colon and an empty name are rejected with 400.
enum HTTPHeadParser {
  /// Splits `bytes` into lines at LF, dropping one CR before each LF.
  static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    while let newline = bytes[start...].firstIndex(of: HTTPBytes.lf) {
      var end = newline
      if end > start && bytes[end - 1] == HTTPBytes.cr { end -= 1 }
      result.append(bytes[start..<end])
      start = newline + 1
    }
    if start < bytes.endIndex { result.append(bytes[start...]) }
    return result
  }

  /// Parses the head whose bytes end just after the empty line.
  static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<ParsedRequestHead, HTTPParseFailure> {
    var lines = lines(bytes)
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else {
      return .failure(failure(.badRequest, "empty request line", bytes))
    }
    let parts = requestLine.split(separator: HTTPBytes.space, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
      parts[0].allSatisfy(HTTPBytes.isTokenCharacter),
      parts[1].allSatisfy({ $0 > 32 && $0 != 127 })
    else {
      return .failure(failure(.badRequest, "malformed request line", bytes))
    }
    let version = HTTPBytes.string(parts[2])
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
      let looksLikeHTTP = version.hasPrefix("HTTP/") && version.count == 8
      return .failure(
        failure(
          looksLikeHTTP ? .versionNotSupported : .badRequest,
          looksLikeHTTP
            ? "unsupported HTTP version \(version)"
            : "malformed request line", bytes))
    }
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      switch parseField(line) {
      case .success(let field): headers.add(field.name, field.value)
      case .failure(let error): return .failure(failure(.badRequest, error.reason, bytes))
      }
    }
    return .success(
      ParsedRequestHead(
        method: HTTPBytes.string(parts[0]), target: HTTPBytes.string(parts[1]), version: version,
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

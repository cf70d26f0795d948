import Foundation

/// Splits multipart bytes into parts (RFC 2046 §5.1.1), for ``MultipartBody``.
enum MultipartParser {
  /// What one parse found.
  struct Output {
    var parts: [MultipartBody.Part] = []
    var droppedParts = 0
    var droppedHeaderFields = 0
    var isComplete = false
  }

  /// What follows `--boundary` on a line.
  private enum DelimiterLine {
    /// An encapsulation boundary; the next part starts at `contentStart`.
    case open(contentStart: Int)
    /// The close delimiter `--boundary--`.
    case close
    /// The body ends inside the delimiter line.
    case end
  }

  static func parse(_ bytes: [UInt8], boundary: [UInt8], limits: MultipartBody.Limits) -> Output {
    let delimiter = Array("--".utf8) + boundary
    var output = Output()
    // The preamble: everything before the first delimiter line.
    guard var found = nextDelimiter(in: bytes, delimiter, from: 0) else { return output }
    while case .open(let contentStart) = found.line {
      let next = nextDelimiter(in: bytes, delimiter, from: contentStart)
      var contentEnd = next?.lineBreakStart ?? bytes.count
      if next == nil {
        // No delimiter follows: the part runs to the end of the body, less its trailing line breaks.
        while contentEnd > contentStart,
          bytes[contentEnd - 1] == HTTPBytes.lf || bytes[contentEnd - 1] == HTTPBytes.cr
        {
          contentEnd -= 1
        }
      }
      if output.parts.count < limits.maxParts {
        let content = bytes[contentStart..<max(contentStart, contentEnd)]
        output.parts.append(makePart(content, limits: limits, dropped: &output.droppedHeaderFields))
      } else {
        output.droppedParts += 1
      }
      guard let next else { return output }
      found = next
    }
    if case .close = found.line { output.isComplete = true }
    return output
  }

  /// The next delimiter line at or after `start`: a line (or the body) beginning `--boundary` and
  /// followed by padding and a line break, by `--`, or by the end of the body. `lineBreakStart` is
  /// where the line break before it begins (its CR included), which ends the previous part.
  private static func nextDelimiter(in bytes: [UInt8], _ delimiter: [UInt8], from start: Int)
    -> (lineBreakStart: Int, line: DelimiterLine)?
  {
    // A line that begins at `start`: the body's first, or one right after the previous delimiter
    // line, whose line break then also starts this delimiter (the part between is empty).
    if start == 0 || bytes[start - 1] == HTTPBytes.lf,
      let line = delimiterLine(in: bytes, delimiter, at: start)
    {
      return (start, line)
    }
    var index = start
    while index < bytes.count, let newline = bytes[index...].firstIndex(of: HTTPBytes.lf) {
      if let line = delimiterLine(in: bytes, delimiter, at: newline + 1) {
        let lineBreakStart = newline > start && bytes[newline - 1] == HTTPBytes.cr ? newline - 1 : newline
        return (lineBreakStart, line)
      }
      index = newline + 1
    }
    return nil
  }

  /// What the line at `start` is, when it begins with the delimiter; nil when it does not, or when
  /// the delimiter runs on into other characters (`--boundaryX` is content, not a delimiter).
  private static func delimiterLine(in bytes: [UInt8], _ delimiter: [UInt8], at start: Int) -> DelimiterLine?
  {
    guard start <= bytes.count, bytes[start...].starts(with: delimiter) else { return nil }
    var index = start + delimiter.count
    if bytes[index...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { return .close }
    while index < bytes.count, bytes[index] == HTTPBytes.space || bytes[index] == HTTPBytes.tab { index += 1 }
    guard index < bytes.count else { return .end }
    if bytes[index] == HTTPBytes.lf { return .open(contentStart: index + 1) }
    guard bytes[index] == HTTPBytes.cr else { return nil }
    guard index + 1 < bytes.count else { return .end }
    return bytes[index + 1] == HTTPBytes.lf ? .open(contentStart: index + 2) : nil
  }

  /// A part from its header section and content: header lines up to the first empty line, folded
  /// lines (starting with a space or tab) joined to the field before them. Without an empty line,
  /// what follows the last complete header line is the content.
  private static func makePart(
    _ content: ArraySlice<UInt8>, limits: MultipartBody.Limits, dropped: inout Int
  ) -> MultipartBody.Part {
    var fields: [(name: String, value: String)] = []
    var lastFieldKept = false
    var index = content.startIndex
    while let newline = content[index...].firstIndex(of: HTTPBytes.lf) {
      var line = content[index..<newline]
      if line.last == HTTPBytes.cr { line.removeLast() }
      index = newline + 1
      if line.isEmpty { break }
      if let first = line.first, first == HTTPBytes.space || first == HTTPBytes.tab {
        // RFC 5322 folding: the line continues the previous field, and is dropped with it.
        if lastFieldKept {
          let continuation = HTTPBytes.string(line).trimmingSpaces
          let previous = fields[fields.count - 1].value
          fields[fields.count - 1].value = previous.isEmpty ? continuation : previous + " " + continuation
        }
        continue
      }
      lastFieldKept = false
      guard case .success(let field) = HTTPHeadParser.parseField(line) else { continue }
      if fields.count < limits.maxHeaderFields {
        fields.append(field)
        lastFieldKept = true
      } else {
        dropped += 1
      }
    }
    var headers = HTTPHeaders()
    for field in fields { headers.add(field.name, field.value) }
    return MultipartBody.Part(headers: headers, body: Data(content[index...]))
  }
}

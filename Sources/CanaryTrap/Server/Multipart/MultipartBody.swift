import Foundation

/// A parsed `multipart/form-data` (or any `multipart/*`) body: its parts, with names, filenames,
/// content types and contents.
///
/// The parser tolerates LF instead of CRLF, transport padding after a delimiter, a preamble and an
/// epilogue, and a missing final delimiter (the last part then runs to the end of the body).
public struct MultipartBody: Sendable {
  /// One part of the body.
  public struct Part: Sendable {
    /// The part's header fields in order.
    public var headers: HTTPHeaders
    /// The `name` parameter of `Content-Disposition`.
    public var name: String?
    /// The `filename*` (decoded) or `filename` parameter of `Content-Disposition`.
    public var filename: String?
    /// The part's `Content-Type`, when given.
    public var contentType: String?
    /// The part's content.
    public var body: Data

    /// The content decoded as UTF-8 (lossily).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Creates a part from its headers and content, reading name and filename from the headers.
    public init(headers: HTTPHeaders, body: Data) {
      self.headers = headers
      self.body = body
      self.contentType = headers["Content-Type"]
      if let disposition = headers["Content-Disposition"] {
        let parameters = HeaderParameters.parse(disposition).parameters
        name = parameters.first { $0.name == "name" }?.value
        if let extended = parameters.first(where: { $0.name == "filename*" }) {
          filename = HeaderParameters.decodeExtendedValue(extended.value)
        } else {
          filename = parameters.first { $0.name == "filename" }?.value
        }
      }
    }
  }

  /// The boundary separating the parts.
  public var boundary: String
  /// The parts in order.
  public var parts: [Part]

  /// Parses `body` when `contentType` is `multipart/...` with a boundary; nil otherwise.
  public init?(contentType: String, body: Data) {
    let (type, parameters) = HeaderParameters.parse(contentType)
    guard type.lowercased().hasPrefix("multipart/"),
      let boundary = parameters.first(where: { $0.name == "boundary" })?.value, !boundary.isEmpty
    else { return nil }
    self.init(boundary: boundary, body: body)
  }

  /// Parses `body` split by `boundary`.
  public init(boundary: String, body: Data) {
    self.boundary = boundary
    self.parts = MultipartParser.parts(of: Array(body), boundary: Array(boundary.utf8))
  }

  /// The first part named `name`.
  public func part(named name: String) -> Part? { parts.first { $0.name == name } }

  /// The text of the first non-file part named `name`.
  public func field(_ name: String) -> String? {
    parts.first { $0.name == name && $0.filename == nil }?.text
  }

  /// The parts that carry a filename.
  public var files: [Part] { parts.filter { $0.filename != nil } }
}

/// Splits multipart bytes into parts.
enum MultipartParser {
  static func parts(of bytes: [UInt8], boundary: [UInt8]) -> [MultipartBody.Part] {
    let delimiter = Array("--".utf8) + boundary
    guard var position = firstDelimiter(in: bytes, delimiter) else { return [] }
    var parts: [MultipartBody.Part] = []
    while true {
      position += delimiter.count
      if bytes[position...].starts(with: Array("--".utf8)) { break }
      // Skip transport padding up to the end of the delimiter line.
      guard let lineEnd = bytes[position...].firstIndex(of: HTTPBytes.lf) else { break }
      let contentStart = lineEnd + 1
      let next = nextDelimiter(in: bytes, delimiter, from: contentStart)
      var contentEnd = next?.lineStart ?? bytes.count
      if next == nil {
        while contentEnd > contentStart,
          bytes[contentEnd - 1] == HTTPBytes.lf || bytes[contentEnd - 1] == HTTPBytes.cr
        {
          contentEnd -= 1
        }
      }
      parts.append(makePart(bytes[contentStart..<max(contentStart, contentEnd)]))
      guard let next else { break }
      position = next.delimiterStart
    }
    return parts
  }

  /// The index of the first delimiter at the start of the body or of a line.
  private static func firstDelimiter(in bytes: [UInt8], _ delimiter: [UInt8]) -> Int? {
    if bytes.starts(with: delimiter) { return 0 }
    return nextDelimiter(in: bytes, delimiter, from: 0)?.delimiterStart
  }

  /// The next `LF--boundary`: where the line break before it starts (CR included) and the delimiter.
  private static func nextDelimiter(in bytes: [UInt8], _ delimiter: [UInt8], from start: Int)
    -> (lineStart: Int, delimiterStart: Int)?
  {
    var index = start
    while let newline = bytes[index...].firstIndex(of: HTTPBytes.lf) {
      if bytes[(newline + 1)...].starts(with: delimiter) {
        let lineStart = newline > start && bytes[newline - 1] == HTTPBytes.cr ? newline - 1 : newline
        return (lineStart, newline + 1)
      }
      index = newline + 1
    }
    return nil
  }

  private static func makePart(_ content: ArraySlice<UInt8>) -> MultipartBody.Part {
    var headers = HTTPHeaders()
    var index = content.startIndex
    while let newline = content[index...].firstIndex(of: HTTPBytes.lf) {
      var line = content[index..<newline]
      if line.last == HTTPBytes.cr { line.removeLast() }
      index = newline + 1
      if line.isEmpty { return MultipartBody.Part(headers: headers, body: Data(content[index...])) }
      if case .success(let field) = HTTPHeadParser.parseField(line) { headers.add(field.name, field.value) }
    }
    return MultipartBody.Part(headers: headers, body: Data(content[index...]))
  }
}

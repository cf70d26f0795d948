import Foundation

/// One part of a `multipart/form-data` body.
struct MultipartPart {
  /// The `name` of its `Content-Disposition`.
  var name: String?
  /// The `filename` of its `Content-Disposition`, for a file part.
  var filename: String?
  /// The part's content.
  var body: Data
}

/// Splits a `multipart/form-data` body into its parts.
enum MultipartReader {
  /// The parts of `body`, whose boundary comes from `contentType`; none when it has no boundary.
  static func parts(of body: Data, contentType: String) -> [MultipartPart] {
    guard let boundary = boundary(in: contentType) else { return [] }
    let delimiter = Data("--\(boundary)".utf8)
    let headerEnd = Data("\r\n\r\n".utf8)
    var parts: [MultipartPart] = []
    var cursor = body.startIndex
    guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else { return [] }
    cursor = first.upperBound
    while let next = body.range(of: delimiter, in: cursor..<body.endIndex) {
      var chunk = body[cursor..<next.lowerBound]
      if chunk.starts(with: Data("\r\n".utf8)) { chunk = chunk.dropFirst(2) }
      if chunk.count >= 2, chunk.suffix(2) == Data("\r\n".utf8) { chunk = chunk.dropLast(2) }
      if let split = chunk.range(of: headerEnd) {
        let headers = String(decoding: chunk[chunk.startIndex..<split.lowerBound], as: UTF8.self)
        parts.append(
          MultipartPart(
            name: parameter("name", in: headers), filename: parameter("filename", in: headers),
            body: Data(chunk[split.upperBound...])))
      }
      cursor = next.upperBound
    }
    return parts
  }

  private static func boundary(in contentType: String) -> String? {
    guard let range = contentType.range(of: "boundary=", options: .caseInsensitive) else { return nil }
    var value = String(contentType[range.upperBound...])
    if let end = value.firstIndex(of: ";") { value = String(value[..<end]) }
    value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    return value.isEmpty ? nil : value
  }

  /// The quoted value of `name="…"` in a part's headers.
  private static func parameter(_ name: String, in headers: String) -> String? {
    for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition") {
      for item in line.split(separator: ";") {
        let trimmed = item.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("\(name)=") else { continue }
        return String(trimmed.dropFirst(name.count + 1)).trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
      }
    }
    return nil
  }
}

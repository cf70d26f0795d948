import Foundation

/// Fuzz target `multipart`: the first byte gives the boundary length, the next bytes the boundary,
/// the rest the body. Parses through both initializers and checks that every part's body is a
/// contiguous piece of the input, that the parts together never exceed it, and that limits keep
/// what they say and count the rest.
func fuzzMultipart(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  let boundaryLength = min(Int(first % 72), bytes.count - 1)
  let boundary = String(decoding: bytes[1..<1 + boundaryLength], as: UTF8.self)
  let body = Array(bytes[(1 + boundaryLength)...])
  let parsed = MultipartBody(boundary: boundary, body: Data(body))
  var total = 0
  for part in parsed.parts {
    total += part.body.count
    if !part.body.isEmpty {
      fuzzCheck(contains(body, Array(part.body)), "a part body that is not in the input")
    }
    _ = part.name
    _ = part.filename
    _ = part.contentType
    _ = part.text
  }
  fuzzCheck(total <= body.count, "parts larger than the body")
  let bounded = MultipartBody(
    boundary: boundary, body: Data(body), limits: .init(maxParts: 2, maxHeaderFields: 1))
  fuzzCheck(bounded.parts.count <= 2, "more parts kept than the limit")
  fuzzCheck(
    bounded.parts.count + bounded.droppedParts == parsed.parts.count + parsed.droppedParts,
    "the limit changed how many parts were found")
  fuzzCheck(bounded.parts.allSatisfy { $0.headers.count <= 1 }, "more header fields kept than the limit")
  fuzzCheck(bounded.isComplete == parsed.isComplete, "the limit changed whether the body was complete")
  _ = parsed.files.count
  _ = parsed.field("a")
  let typeText = "multipart/form-data; charset=utf-8; " + String(decoding: bytes.prefix(80), as: UTF8.self)
  if let other = MultipartBody(contentType: typeText, body: Data(body)) {
    _ = other.parts.count
  }
  _ = MultipartBody(contentType: "multipart/mixed; boundary=\"\(boundary)\"", body: Data(body))?.parts.count
}

/// Whether `needle` occurs contiguously in `haystack`.
private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
  guard needle.count <= haystack.count else { return false }
  for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
    if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
  }
  return false
}

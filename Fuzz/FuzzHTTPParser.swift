import Foundation

/// Fuzz target `http`: feeds the bytes to the HTTP request parser in pieces whose sizes come from the
/// first byte, drains every event, then derives the recorded-request views (query, cookies, form,
/// multipart). Crashes on an invariant break: a request whose raw bytes were never received, a body
/// over the limit, events after a failure, or a parse that changes with the size of the pieces.
func fuzzHTTPParser(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  let input = bytes.dropFirst()
  let pieceSize = Int(first % 64) + 1
  let limits = HTTPRequestParser.Limits(maxHeaderBytes: 2048, maxBodyBytes: 4096)
  var parser = HTTPRequestParser(limits: limits)
  var rawTotal = 0
  var failed = false
  var index = input.startIndex
  func drain() {
    while let event = parser.next() {
      fuzzCheck(!failed, "event after a failure")
      switch event {
      case .request(let request):
        fuzzCheck(request.body.count <= limits.maxBodyBytes, "body over the limit")
        rawTotal += request.raw.count
        fuzzCheck(rawTotal <= input.count, "more raw bytes than received")
        let recorded = RecordedRequest(
          method: request.head.method, target: request.head.target, version: request.head.version,
          headers: request.head.headers, body: Data(request.body), trailers: request.trailers,
          raw: Data(request.raw))
        _ = recorded.queryItems
        _ = recorded.cookies
        _ = recorded.formFields
        _ = recorded.multipart?.parts.count
        _ = recorded.headers["Host"]
      case .continueExpected:
        break
      case .failure(let failure):
        fuzzCheck(parser.hasFailed, "failure event but parser not failed")
        _ = failure.reason
        failed = true
      }
    }
  }
  while index < input.endIndex {
    let end = input.index(index, offsetBy: pieceSize, limitedBy: input.endIndex) ?? input.endIndex
    parser.append(input[index..<end])
    index = end
    drain()
  }
  let pending = parser.hasPartialRequest
  let ending = parser.finish()
  fuzzCheck(pending == (ending != nil), "finish() disagrees with hasPartialRequest")
  let inPieces = httpEventSummary(Array(input), limits: limits, pieceSize: pieceSize)
  let atOnce = httpEventSummary(Array(input), limits: limits, pieceSize: input.count + 1)
  fuzzCheck(inPieces == atOnce, "piece size changed the parse: \(inPieces) vs \(atOnce)")
}

/// The requests and failures (not `100 Continue`, which depends on timing) parsed from `input`
/// fed in pieces of `pieceSize`, with the end-of-input failure if any.
private func httpEventSummary(_ input: [UInt8], limits: HTTPRequestParser.Limits, pieceSize: Int)
  -> [String]
{
  var parser = HTTPRequestParser(limits: limits)
  var events: [String] = []
  var index = 0
  while index < input.count {
    let end = min(input.count, index + pieceSize)
    parser.append(input[index..<end])
    index = end
    while let event = parser.next() {
      switch event {
      case .request(let request):
        events.append(
          "\(request.head.method) \(request.head.target) \(request.head.headers.count) h, "
            + "\(request.body.count) b, \(request.trailers.count) t, \(request.raw.count) raw")
      case .continueExpected: break
      case .failure(let failure): events.append("failure \(failure.outcome) \(failure.reason)")
      }
    }
  }
  if let failure = parser.finish() { events.append("end \(failure.outcome) \(failure.reason)") }
  return events
}

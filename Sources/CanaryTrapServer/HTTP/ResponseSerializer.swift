import Foundation

/// Turns a ``ServerResponse`` into the bytes sent on the wire, head and body in one buffer.
enum ResponseSerializer {
  /// The bytes to send and whether the connection must close after them.
  struct Output {
    var bytes: [UInt8]
    var closeAfter: Bool
  }

  /// Serializes `response` for a request with `method` and `version`.
  ///
  /// Adds `Content-Length` or `Transfer-Encoding: chunked` unless the script set either, and
  /// `Connection: close` (or `keep-alive` for HTTP/1.0) unless the script set `Connection`.
  /// A HEAD request, 1xx, 204 and 304 get no body. HTTP/1.0 clients get a chunked body joined.
  static func serialize(
    _ response: ServerResponse, method: String, version: String, keepAlive: Bool
  ) -> Output {
    let headers = response.headers
    let scriptedConnection = headers["Connection"]
    let closeAfter = !keepAlive || (scriptedConnection.map { $0.lowercased().contains("close") } ?? false)
    let hasBody =
      method != "HEAD" && !(100..<200).contains(response.status) && response.status != 204
      && response.status != 304
    let isOldClient = version == "HTTP/1.0"
    var body = response.body
    if case .chunked = body, isOldClient { body = .fixed(body.data) }
    let framingScripted = headers.contains("Content-Length") || headers.contains("Transfer-Encoding")
    let addsFraming =
      !framingScripted && response.status >= 200 && response.status != 204 && response.status != 304
    var bodyCount = 0
    if hasBody, case .fixed(let data) = body { bodyCount = data.count }
    // One buffer sized for head and body: the added fields go straight in, no list of them.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(
      256 + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + bodyCount)
    if !isOldClient { appendInformational(response.informational, to: &bytes) }
    appendStatusLineAndFields(status: response.status, reason: response.reason, headers: headers, to: &bytes)
    if addsFraming {
      switch body {
      case .fixed(let data): appendField("Content-Length", String(data.count), to: &bytes)
      case .chunked: appendField("Transfer-Encoding", "chunked", to: &bytes)
      }
    }
    if scriptedConnection == nil {
      if closeAfter {
        appendField("Connection", "close", to: &bytes)
      } else if isOldClient {
        appendField("Connection", "keep-alive", to: &bytes)
      }
    }
    bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
    if hasBody {
      switch body {
      case .fixed(let data): bytes.append(contentsOf: data)
      case .chunked(let chunks): appendChunked(chunks, trailers: response.trailers, to: &bytes)
      }
    }
    return Output(bytes: bytes, closeAfter: closeAfter)
  }

  /// The whole of `response` with the last digit of its status code replaced by the letter `O`,
  /// for the malformed-status-line fault (no informational response goes first); the connection
  /// closes after it.
  static func malformed(_ response: ServerResponse, method: String) -> [UInt8] {
    var final = response
    final.informational = []
    var bytes = serialize(final, method: method, version: "HTTP/1.1", keepAlive: false).bytes
    let lastDigit = "HTTP/1.1 ".utf8.count + String(response.status).utf8.count - 1
    if bytes.indices.contains(lastDigit) { bytes[lastDigit] = UInt8(ascii: "O") }
    return bytes
  }

  /// The head and half of the body of `response`, for the close-mid-body fault.
  static func truncated(_ response: ServerResponse, method: String) -> [UInt8] {
    var headers = response.headers
    headers.remove("Connection")
    headers.add("Connection", "close")
    switch response.body {
    case .fixed(let data):
      if !headers.contains("Content-Length") && !headers.contains("Transfer-Encoding") {
        headers.add("Content-Length", String(max(data.count, 2)))
      }
      var bytes = head(status: response.status, reason: response.reason, headers: headers)
      bytes.append(contentsOf: data.prefix(data.count / 2))
      return bytes
    case .chunked(let chunks):
      if !headers.contains("Transfer-Encoding") { headers.add("Transfer-Encoding", "chunked") }
      var bytes = head(status: response.status, reason: response.reason, headers: headers)
      let whole = chunks.reduce(into: Data()) { $0.append($1) }
      let size = max(whole.count, 2)
      bytes.append(contentsOf: Array("\(String(size, radix: 16))\r\n".utf8))
      bytes.append(contentsOf: whole.prefix(whole.count / 2))
      return bytes
    }
  }

  /// The status line and header block, ending with the empty line.
  static func head(status: Int, reason: String?, headers: HTTPHeaders) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(512)
    appendStatusLineAndFields(status: status, reason: reason, headers: headers, to: &bytes)
    bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
    return bytes
  }

  /// Appends the status line and `headers`, without the empty line that ends the head.
  private static func appendStatusLineAndFields(
    status: Int, reason: String?, headers: HTTPHeaders, to bytes: inout [UInt8]
  ) {
    bytes.append(contentsOf: "HTTP/1.1 ".utf8)
    bytes.append(contentsOf: String(status).utf8)
    bytes.append(HTTPBytes.space)
    bytes.append(contentsOf: (reason ?? HTTPStatus.reasonPhrase(status)).utf8)
    bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
    for field in headers { appendField(field.name, field.value, to: &bytes) }
  }

  /// Appends one `Name: value` line.
  private static func appendField(_ name: String, _ value: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: name.utf8)
    bytes.append(contentsOf: [HTTPBytes.colon, HTTPBytes.space])
    bytes.append(contentsOf: value.utf8)
    bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
  }

  /// `HTTP/1.1 100 Continue`.
  static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  private static func appendChunked(_ chunks: [Data], trailers: HTTPHeaders, to bytes: inout [UInt8]) {
    for chunk in chunks where !chunk.isEmpty {
      bytes.append(contentsOf: Array("\(String(chunk.count, radix: 16))\r\n".utf8))
      bytes.append(contentsOf: chunk)
      bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
    }
    appendLastChunk(trailers: trailers, to: &bytes)
  }
}

/// Standard reason phrases.
enum HTTPStatus {
  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 101: "Switching Protocols"
    case 102: "Processing"
    case 103: "Early Hints"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 410: "Gone"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 417: "Expectation Failed"
    case 422: "Unprocessable Content"
    case 426: "Upgrade Required"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}

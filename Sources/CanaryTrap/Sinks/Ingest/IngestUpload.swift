import Foundation

/// One upload an ``IngestSink`` received and kept: the request as it arrived, body still encoded.
public struct IngestUpload: Sendable {
  /// The position in the sink's arrival order, from 0, counting uploads it dropped too.
  package var sequence: Int
  /// The method, such as `POST`.
  public var method: String
  /// The path, still percent-encoded, without the query.
  public var path: String
  /// The query after `?`, still percent-encoded, or nil.
  public var query: String?
  /// The header fields in order.
  public var headers: HTTPHeaders
  /// The body as received (still compressed when it was sent with a `Content-Encoding`).
  public var body: Data
  /// The status the sink answered.
  public var status: Int
  /// When it was complete.
  package var receivedAt: Date

  /// The request line and header fields as text: what the sink scans besides the body.
  var head: Data {
    var text = "\(method) \(path)\(query.map { "?\($0)" } ?? "")\n"
    for field in headers { text += "\(field.name): \(field.value)\n" }
    return Data(text.utf8)
  }

  /// Bytes it holds, as counted against ``IngestSink/Limit/maxBytes``.
  var size: Int { body.count + head.count }
}

import Foundation

/// A parsed `multipart/form-data` (or any `multipart/*`) body: its parts, with names, filenames,
/// content types and contents.
///
/// This is the package's one multipart parser: `request.multipart` and the proof that a canary
/// reached a multipart field both read a body through it. It follows RFC 2046 §5.1.1 and RFC 7578:
/// a delimiter is `--boundary` at the start of a line, followed only by optional spaces or tabs and
/// the line break (or by `--` for the close delimiter); the preamble before the first delimiter and
/// the epilogue after the close delimiter are ignored; each part's header fields end at the first
/// empty line, and folded header lines are joined. It tolerates LF instead of CRLF and a missing
/// close delimiter (the last part then runs to the end of the body, and `isComplete` is false).
///
/// Hostile bodies stay bounded: at most `Limits.maxParts` parts and `Limits.maxHeaderFields`
/// header fields per part are kept, and `droppedParts` and `droppedHeaderFields` count the rest.
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
    package init(headers: HTTPHeaders, body: Data) {
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

  /// How much of a body the parser keeps.
  package struct Limits: Sendable {
    /// The most parts kept; later parts are counted in `MultipartBody.droppedParts`.
    package var maxParts: Int
    /// The most header fields kept per part; later ones are counted in
    /// `MultipartBody.droppedHeaderFields`.
    package var maxHeaderFields: Int

    /// Creates limits; the defaults keep 1,000 parts of up to 100 header fields each.
    package init(maxParts: Int = 1000, maxHeaderFields: Int = 100) {
      self.maxParts = max(0, maxParts)
      self.maxHeaderFields = max(0, maxHeaderFields)
    }
  }

  /// The boundary separating the parts.
  package var boundary: String
  /// The parts in order, at most `Limits.maxParts`.
  public var parts: [Part]
  /// How many parts were found past `Limits.maxParts` and not kept.
  package var droppedParts: Int
  /// How many header fields were found past `Limits.maxHeaderFields` in a part and not kept.
  package var droppedHeaderFields: Int
  /// Whether the body ended with the close delimiter `--boundary--`.
  package var isComplete: Bool

  /// Parses `body` when `contentType` is `multipart/...` with a boundary; nil otherwise.
  package init?(contentType: String, body: Data, limits: Limits = Limits()) {
    guard let boundary = Self.boundary(inContentType: contentType) else { return nil }
    self.init(boundary: boundary, body: body, limits: limits)
  }

  /// Parses `body` split by `boundary`.
  package init(boundary: String, body: Data, limits: Limits = Limits()) {
    self.boundary = boundary
    let parsed = MultipartParser.parse(Array(body), boundary: Array(boundary.utf8), limits: limits)
    parts = parsed.parts
    droppedParts = parsed.droppedParts
    droppedHeaderFields = parsed.droppedHeaderFields
    isComplete = parsed.isComplete
  }

  /// The first part named `name`.
  public func part(named name: String) -> Part? { parts.first { $0.name == name } }

  /// The text of the first non-file part named `name`.
  public func field(_ name: String) -> String? {
    parts.first { $0.name == name && $0.filename == nil }?.text
  }

  /// The parts that carry a filename.
  public var files: [Part] { parts.filter { $0.filename != nil } }

  /// The `boundary` parameter of a `multipart/...` content type; nil for another type or none.
  static func boundary(inContentType contentType: String) -> String? {
    let (type, parameters) = HeaderParameters.parse(contentType)
    guard type.lowercased().hasPrefix("multipart/"),
      let boundary = parameters.first(where: { $0.name == "boundary" })?.value, !boundary.isEmpty
    else { return nil }
    return boundary
  }
}

import Foundation

/// The JSON document that carries a canary set between processes: `canary scan`, `canary serve`
/// and UI tests read and write it.
///
/// ```json
/// { "version": 1,
///   "canaries": [ { "value": "cnry7h2k…", "location": "request.header[X-Session]", "shape": "token" } ] }
/// ```
/// `value` and `location` are required; every other field is kept as read.
package struct CanaryManifest: Sendable, Hashable {
  /// The manifest format this library writes and reads.
  package static let currentVersion = 1
  /// Values shorter than this many UTF-8 bytes are refused: they could match by coincidence.
  package static let minimumValueLength = 12
  /// Values longer than this many UTF-8 bytes are refused: a canary is a token, not a document,
  /// and every byte of it multiplies the patterns searched.
  package static let maximumValueLength = 1024
  /// Manifests with more canaries than this are refused: a scan keeps about 1.5 KB per canary
  /// (its index entries and value), some 375 MB at the cap.
  package static let maximumCanaryCount = 250_000
  /// Values with fewer distinct characters than this are refused (`aaaaaaaaaaaa`, twelve
  /// spaces): they match ordinary padding and repeated text, not a leak.
  package static let minimumDistinctCharacters = 5

  /// The format version.
  package var version: Int
  /// The canaries, in manifest order.
  package var canaries: [Canary]
  /// Top-level fields CanaryTrap does not interpret, kept for the round trip.
  package var extraFields: [String: JSONValue]

  /// Creates a manifest of `canaries`.
  package init(canaries: [Canary], version: Int = CanaryManifest.currentVersion) {
    self.init(canaries: canaries, version: version, extraFields: [:])
  }

  /// Creates a manifest that keeps top-level fields CanaryTrap does not interpret.
  package init(canaries: [Canary], version: Int, extraFields: [String: JSONValue]) {
    self.version = version
    self.canaries = canaries
    self.extraFields = extraFields
  }

  /// Reads a manifest file (a pipe or FIFO too, up to 16 MiB), with an error that names the file
  /// and what is wrong.
  package init(contentsOf url: URL) throws {
    let bytes = try ManifestFile.read(path: Array(url.path.utf8), name: url.path)
    self = try CanaryManifest(jsonData: Data(bytes))
  }

  /// Reads a manifest from a path given as the system's bytes (a name that need not be UTF-8).
  package init(contentsOfPath path: [UInt8]) throws {
    let name = path.withUnsafeBufferPointer { Excerpt.render($0) }
    self = try CanaryManifest(jsonData: Data(ManifestFile.read(path: path, name: name)))
  }

  /// Decodes a manifest from JSON bytes.
  package init(jsonData: Data) throws {
    self = try ManifestDecoding.decode(jsonData)
  }

  /// The manifest as pretty-printed JSON with sorted keys.
  package func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(ManifestDecoding.Document(self))
  }

  /// Writes the manifest to `url`, replacing any file there.
  package func write(to url: URL) throws {
    try jsonData().write(to: url, options: .atomic)
  }

  /// How many different Unicode scalars `value` holds (a bitmap for ASCII, which a manifest of
  /// 100,000 canaries checks 100,000 times).
  private static func distinctScalars(_ value: String) -> Int {
    var seen: (UInt64, UInt64) = (0, 0)
    for byte in value.utf8 {
      if byte >= 0x80 { return Set(value.unicodeScalars).count }
      if byte < 64 { seen.0 |= 1 << byte } else { seen.1 |= 1 << (byte - 64) }
    }
    return seen.0.nonzeroBitCount + seen.1.nonzeroBitCount
  }

  /// Checks that a canary can be scanned for; `index` names it in the error.
  static func validate(_ canary: Canary, at index: Int) throws {
    let length = canary.value.utf8.count
    if length < minimumValueLength {
      throw ManifestError.valueTooShort(index: index, value: canary.value, length: length)
    }
    if length > maximumValueLength {
      throw ManifestError.valueTooLong(index: index, length: length)
    }
    let distinct = distinctScalars(canary.value)
    if distinct < minimumDistinctCharacters || canary.value.allSatisfy(\.isWhitespace) {
      throw ManifestError.valueTooPlain(index: index, value: canary.value, distinct: distinct)
    }
  }
}

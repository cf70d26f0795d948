import Foundation

/// The JSON document that carries a canary set between processes: `canary scan`, `canary serve`
/// and UI tests read and write it.
///
/// ```json
/// { "version": 1,
///   "canaries": [ { "value": "cnry7h2k…", "location": "request.header[X-Session]", "shape": "token" } ] }
/// ```
/// `value` and `location` are required; every other field is kept as read.
public struct CanaryManifest: Sendable, Hashable {
  /// The manifest format this library writes and reads.
  public static let currentVersion = 1
  /// Values shorter than this many UTF-8 bytes are refused: they could match by coincidence.
  public static let minimumValueLength = 12

  /// The format version.
  public var version: Int
  /// The canaries, in manifest order.
  public var canaries: [Canary]
  /// Top-level fields CanaryTrap does not interpret, kept for the round trip.
  public var extraFields: [String: JSONValue]

  /// Creates a manifest of `canaries`.
  public init(
    canaries: [Canary], version: Int = CanaryManifest.currentVersion,
    extraFields: [String: JSONValue] = [:]
  ) {
    self.version = version
    self.canaries = canaries
    self.extraFields = extraFields
  }

  /// Reads a manifest file, with an error that names the file and what is wrong.
  public init(contentsOf url: URL) throws {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ManifestError.unreadable(path: url.path, reason: error.localizedDescription)
    }
    self = try CanaryManifest(jsonData: data)
  }

  /// Decodes a manifest from JSON bytes.
  public init(jsonData: Data) throws {
    self = try ManifestDecoding.decode(jsonData)
  }

  /// The manifest as pretty-printed JSON with sorted keys.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(ManifestDecoding.Document(self))
  }

  /// Writes the manifest to `url`, replacing any file there.
  public func write(to url: URL) throws {
    try jsonData().write(to: url, options: .atomic)
  }

  /// Checks that a canary can be scanned for; `index` names it in the error.
  static func validate(_ canary: Canary, at index: Int) throws {
    let length = canary.value.utf8.count
    if length < minimumValueLength {
      throw ManifestError.valueTooShort(index: index, value: canary.value, length: length)
    }
  }
}

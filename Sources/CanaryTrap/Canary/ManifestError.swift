/// Why a manifest could not be read, worded for the person who wrote it.
package enum ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The bytes are not JSON, or not a JSON object.
  case invalidJSON(reason: String)
  /// The manifest declares a version this library does not read.
  case unsupportedVersion(Int)
  /// A required field is missing or has the wrong type.
  case invalidField(path: String, expected: String)
  /// A canary value is too short to scan for without false alarms.
  case valueTooShort(index: Int, value: String, length: Int)
  /// A canary value is longer than ``CanaryManifest/maximumValueLength``.
  case valueTooLong(index: Int, length: Int)
  /// A canary value has too few distinct characters (or only whitespace) to be told from
  /// ordinary text.
  case valueTooPlain(index: Int, value: String, distinct: Int)
  /// The bytes are not UTF-8; the position of the first bad byte is given.
  case invalidUTF8(offset: Int, line: Int, column: Int)
  /// The manifest holds no canary, so a scan with it could prove nothing.
  case noCanaries
  /// The manifest holds more than ``CanaryManifest/maximumCanaryCount`` canaries.
  case tooManyCanaries(count: Int, maximum: Int)

  /// One line saying what is wrong and where.
  package var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "cannot read manifest \(path): \(reason)"
    case .invalidJSON(let reason):
      "manifest is not valid JSON: \(reason)"
    case .unsupportedVersion(let version):
      "manifest version \(version) is not supported (this canary reads version \(CanaryManifest.currentVersion))"
    case .invalidField(let path, let expected):
      "manifest field \(path) must be \(expected)"
    case .valueTooShort(let index, let value, let length):
      "canaries[\(index)].value \"\(value)\" is \(length) bytes; values need at least \(CanaryManifest.minimumValueLength) bytes so they cannot match by coincidence"
    case .valueTooLong(let index, let length):
      "canaries[\(index)].value is \(length) bytes; values may hold at most \(CanaryManifest.maximumValueLength) bytes"
    case .valueTooPlain(let index, let value, let distinct):
      "canaries[\(index)].value \"\(value.withControlCharactersEscaped)\" has \(distinct) distinct character\(distinct == 1 ? "" : "s"); values need at least \(CanaryManifest.minimumDistinctCharacters), not all whitespace, so they cannot match ordinary text"
    case .invalidUTF8(let offset, let line, let column):
      "manifest is not UTF-8: invalid byte at line \(line), column \(column) (byte offset \(offset))"
    case .noCanaries:
      "manifest holds no canary (\"canaries\" is empty), so a scan with it could prove nothing"
    case .tooManyCanaries(let count, let maximum):
      "manifest holds \(count) canaries; a manifest may hold at most \(maximum), which bounds the memory a scan takes (about 1.5 KB a canary): split the canaries across manifests"
    }
  }
}

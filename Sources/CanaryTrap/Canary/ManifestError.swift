/// Why a manifest could not be read, worded for the person who wrote it.
public enum ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
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

  /// One line saying what is wrong and where.
  public var description: String {
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
    }
  }
}

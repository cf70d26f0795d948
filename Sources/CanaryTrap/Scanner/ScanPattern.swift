/// One literal byte string the scanner searches for: a canary in one encoding.
///
/// Case-insensitive matches and fragments are searched from the ``ScanEncoding/raw`` pattern and
/// have no pattern of their own.
public struct ScanPattern: Sendable, Hashable {
  /// The canary the bytes stand for.
  public var canary: Canary
  /// How the canary was encoded to make ``bytes``.
  public var encoding: ScanEncoding
  /// The exact bytes searched.
  public var bytes: [UInt8]

  /// Creates a pattern.
  public init(canary: Canary, encoding: ScanEncoding, bytes: [UInt8]) {
    self.canary = canary
    self.encoding = encoding
    self.bytes = bytes
  }
}

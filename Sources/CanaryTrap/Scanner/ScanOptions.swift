/// What a ``LeakScanner`` searches for and how much context it reports.
public struct ScanOptions: Sendable, Hashable {
  /// The encodings searched; all of them by default.
  public var encodings: Set<ScanEncoding>
  /// The shortest run of a canary's bytes reported as a ``ScanEncoding/fragment``; `nil` turns
  /// fragments off. Values below 4 are raised to 4.
  public var minFragment: Int?
  /// The most bytes of context an excerpt shows on each side of a match.
  public var excerptRadius: Int
  /// Limits on what containers (gzip, zlib, zip, tar, SQLite, property lists) may expand to.
  public var containerLimits = ContainerLimits()

  /// Every encoding, fragments of 16 bytes or more, 20 bytes of context.
  public init() {
    encodings = Set(ScanEncoding.allCases)
    minFragment = 16
    excerptRadius = 20
  }

  /// Options with the given settings.
  public init(encodings: Set<ScanEncoding>, minFragment: Int? = 16, excerptRadius: Int = 20) {
    self.encodings = encodings
    self.minFragment = minFragment
    self.excerptRadius = excerptRadius
  }

  /// The fragment length actually used, or `nil` when fragments are off.
  var effectiveMinFragment: Int? {
    guard encodings.contains(.fragment), let minFragment else { return nil }
    return max(minFragment, 4)
  }
}

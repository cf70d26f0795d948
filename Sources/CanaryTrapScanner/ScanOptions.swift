/// What a ``LeakScanner`` searches for and how much context it reports.
package struct ScanOptions: Sendable, Hashable {
  /// The encodings searched; all of them by default.
  package var encodings: Set<ScanEncoding>
  /// The shortest run of a canary's bytes reported as a ``ScanEncoding/fragment``; `nil` turns
  /// fragments off. Values below ``minimumFragmentLength`` are raised to it.
  package var minFragment: Int?
  /// The most bytes of context an excerpt shows on each side of a match, never past a line break.
  package var excerptRadius: Int
  /// The most findings kept for one canary in one source (at least 1); further matches are only
  /// counted, in ``ScannedSource/omittedFindings``, so a log full of one canary stays bounded.
  package var maxFindingsPerCanary: Int
  /// Limits on what containers (gzip, zlib, zip, tar, SQLite, property lists) may expand to.
  package var containerLimits = ContainerLimits()
  /// Limits on what is decoded from the text itself (Foundation's `Data` descriptions, byte
  /// lists, base64 of gzip, zlib, raw deflate, zip, bzip2 or LZ4, percent-encoded text).
  package var decodingLimits = DecodingLimits()
  /// Whether a value a logger wrapped over lines is searched across the line breaks, past each
  /// continuation's prefix and indentation; on by default. Off, only spellings whose bytes lie
  /// together in the text are found (the fuzz target's exact oracle checks those).
  package var joinsWrappedLines = true
  /// Whether percent-encoded text is also read decoded (``PercentRunDecoder``), when `percent` is
  /// searched; on by default. Off, a percent form is found only as the forward literal spells it
  /// (the fuzz target's exact oracle checks those).
  package var decodesPercentRuns = true

  /// The shortest fragment ever searched: 8 bytes. Shorter runs of a random value turn up by
  /// chance in ordinary logs (4 bytes gave 52,002 false leaks in a clean 10 MB log).
  package static let minimumFragmentLength = 8

  /// The default of ``maxFindingsPerCanary``.
  package static let defaultMaxFindingsPerCanary = 100

  /// Every encoding, fragments of 16 bytes or more, 20 bytes of context, 100 findings kept per
  /// canary and source.
  package init() {
    encodings = Set(ScanEncoding.allCases)
    minFragment = 16
    excerptRadius = 20
    maxFindingsPerCanary = Self.defaultMaxFindingsPerCanary
  }

  /// Options with the given settings.
  package init(
    encodings: Set<ScanEncoding>, minFragment: Int? = 16, excerptRadius: Int = 20,
    maxFindingsPerCanary: Int = ScanOptions.defaultMaxFindingsPerCanary
  ) {
    self.encodings = encodings
    self.minFragment = minFragment
    self.excerptRadius = excerptRadius
    self.maxFindingsPerCanary = maxFindingsPerCanary
  }

  /// The fragment length actually used, or `nil` when fragments are off.
  var effectiveMinFragment: Int? {
    guard encodings.contains(.fragment), let minFragment else { return nil }
    return max(minFragment, Self.minimumFragmentLength)
  }
}

/// One place where a canary turned up in a sink.
public struct LeakFinding: Sendable, Hashable {
  /// The canary that leaked.
  public var canary: Canary
  /// How the leaked bytes were encoded, such as `raw`, `base64` or `sha256-hex` (see ``ScanEncoding``).
  public var encoding: String
  /// The sink or file the canary was found in.
  public var source: String
  /// The 1-based line of the match's first byte.
  public var line: Int
  /// The 1-based byte column of the match's first byte within its line.
  public var column: Int
  /// The 0-based byte offset of the match's first byte within the source.
  public var offset: Int
  /// A short, bounded excerpt around the match, with non-printable bytes escaped.
  public var excerpt: String

  /// Creates a finding.
  public init(
    canary: Canary, encoding: String, source: String, line: Int, column: Int, offset: Int,
    excerpt: String
  ) {
    self.canary = canary
    self.encoding = encoding
    self.source = source
    self.line = line
    self.column = column
    self.offset = offset
    self.excerpt = excerpt
  }
}

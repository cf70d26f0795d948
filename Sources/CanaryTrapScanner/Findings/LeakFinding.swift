/// One place where a canary turned up in a sink.
public struct LeakFinding: Sendable, Hashable {
  /// The canary that leaked.
  public var canary: Canary
  /// How the leaked bytes were encoded, innermost first, such as `[.jsonEscaped, .base64]`.
  package var encodings: EncodingChain
  /// The sink or file the canary was found in.
  public var source: String
  /// The 1-based line of the match's first byte.
  public var line: Int
  /// The 1-based byte column of the match's first byte within its line.
  public var column: Int
  /// The 0-based byte offset of the match's first byte within the source.
  package var offset: Int
  /// A short, bounded excerpt around the match, with non-printable bytes escaped.
  public var excerpt: String
  /// Where in the user's code the leaked canary was planted (the `canary(_:at:)` call, or the
  /// `runMatrix` call for matrix canaries), when known; test issues and SARIF results point here.
  public var plantedAt: ReportSourceLocation?

  /// The encoding chain as reports print it, such as `raw`, `sha256-hex` or
  /// `json-escaped → base64` (see `EncodingChain.description`).
  public var encoding: String { encodings.description }

  /// Creates a finding.
  package init(
    canary: Canary, encodings: EncodingChain, source: String, line: Int, column: Int, offset: Int,
    excerpt: String
  ) {
    self.canary = canary
    self.encodings = encodings
    self.source = source
    self.line = line
    self.column = column
    self.offset = offset
    self.excerpt = excerpt
  }

  /// Creates a finding from a rendered chain name such as `base64` or `json-escaped → base64`;
  /// a name that is not a chain of ``ScanEncoding`` names is a programming error.
  package init(
    canary: Canary, encoding: String, source: String, line: Int, column: Int, offset: Int,
    excerpt: String
  ) {
    guard let chain = EncodingChain(name: encoding) else {
      preconditionFailure("'\(encoding)' is not a chain of ScanEncoding names")
    }
    self.init(
      canary: canary, encodings: chain, source: source, line: line, column: column, offset: offset,
      excerpt: excerpt)
  }
}

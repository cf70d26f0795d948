/// A sink or file that a scan looked at, and what it held.
public struct ScannedSource: Sendable, Hashable {
  /// The name findings use for it: a sink's name or a file's path.
  public var name: String
  /// How many bytes were scanned.
  public var bytes: Int
  /// Whether the source could be trusted to have captured the run.
  public var status: Status
  /// Findings counted in this source beyond ``ScanOptions/maxFindingsPerCanary`` and not kept.
  package var omittedFindings: [OmittedFindings]

  /// Whether a source's silence is a finding of its own.
  public enum Status: Sendable, Hashable {
    /// The source was read and heard the run.
    case heard
    /// The source was read but captured nothing of the run (no tracer, no bytes).
    case silent(reason: String)
    /// The source could not be read.
    case failed(reason: String)
  }

  /// Creates a description of a scanned source.
  package init(
    name: String, bytes: Int, status: Status = .heard, omittedFindings: [OmittedFindings] = []
  ) {
    self.name = name
    self.bytes = bytes
    self.status = status
    self.omittedFindings = omittedFindings
  }
}

/// One thing wrong with a run, worded for a person: a leak, an undelivered canary, a silent or
/// failed source, or an error. Test adapters record one issue per problem.
public struct ReportProblem: Sendable, Hashable {
  /// What kind of problem it is, with the record it came from.
  public var kind: Kind
  /// A sentence a person understands on first reading.
  public var message: String

  /// Where in the user's code the problem belongs, when known: the line that planted the leaked
  /// or undelivered canary. Test adapters record the problem's issue there.
  public var plantedAt: ReportSourceLocation? {
    switch kind {
    case .leak(let finding): finding.plantedAt
    case .undelivered(let delivery): delivery.plantedAt
    case .silentSource, .failedSource, .error: nil
    }
  }

  /// The kinds of problems a report can hold.
  public enum Kind: Sendable, Hashable {
    /// A canary found in a source.
    case leak(LeakFinding)
    /// A planted canary never proven to arrive.
    case undelivered(CanaryDelivery)
    /// A source that captured nothing of the run.
    case silentSource(ScannedSource)
    /// A source that could not be read.
    case failedSource(ScannedSource)
    /// Anything else that went wrong, such as a transport that threw.
    case error(RunError)
  }

  /// Creates a problem with the standard wording for `kind`.
  package init(_ kind: Kind) {
    self.kind = kind
    switch kind {
    case .leak(let finding): message = finding.message
    case .undelivered(let delivery):
      message =
        "canary planted in \(delivery.canary.location)\(delivery.canary.location.failureNote) was never delivered"
        + " (\(delivery.reason ?? "unknown reason")),"
        + " so this run cannot show whether it would leak"
    case .silentSource(let source):
      message =
        "\(source.name) heard nothing of this run (\(source.status.reason ?? "no bytes")),"
        + " so a leak there would go unseen"
    case .failedSource(let source):
      message = "\(source.name) could not be read (\(source.status.reason ?? "unknown reason"))"
    case .error(let error): message = "the run failed: \(error.message)"
    }
  }
}

extension LeakReport {
  /// Every problem of the run in a fixed order: the error that stopped the run first, when one did
  /// (a scope that could not start, a kind that could not plant: the rest follows from it), then
  /// leaks, undelivered canaries, silent and failed sources, then the other errors. Empty exactly
  /// when the report is clean.
  public var problems: [ReportProblem] {
    var otherErrors = runErrors
    if let stopCause, let index = otherErrors.firstIndex(of: stopCause) { otherErrors.remove(at: index) }
    return (stopCause.map { [ReportProblem(.error($0))] } ?? [])
      + findings.map { ReportProblem(.leak($0)) }
      + undelivered.map { ReportProblem(.undelivered($0)) }
      + problemSources.map { source in
        if case .failed = source.status { return ReportProblem(.failedSource(source)) }
        return ReportProblem(.silentSource(source))
      }
      + otherErrors.map { ReportProblem(.error($0)) }
  }
}

extension LeakFinding {
  /// A sentence such as `canary planted in request.header[X-Session] leaked into stdout,
  /// base64-encoded, at line 3 col 17: "…excerpt…"`.
  public var message: String {
    "canary planted in \(canary.location)\(canary.location.failureNote) leaked into \(source), \(encodingPhrase),"
      + " at line \(line) col \(column)\(canary.location.resentNote): \"\(excerpt)\""
  }

  /// The encoding as words: `base64-encoded`, `in plain text`, `hashed (sha256-hex)`.
  package var encodingPhrase: String { Self.phrase(forEncoding: encoding) }

  /// The words for an encoding name, such as `base64-encoded` for `base64`.
  static func phrase(forEncoding encoding: String) -> String {
    switch encoding {
    case "raw": "in plain text"
    case "case-insensitive": "with its letter case changed"
    case "fragment": "in part (a fragment of it)"
    case let name where name.hasPrefix("sha") || name.hasPrefix("md5"): "hashed (\(name))"
    default: "\(encoding)-encoded"
    }
  }
}

extension CanaryDelivery {
  /// Why the canary was not delivered, or nil when it was.
  public var reason: String? {
    if case .undelivered(let reason) = status { return reason }
    return nil
  }
}

extension ScannedSource.Status {
  /// Why the source was silent or failed, or nil when it heard the run.
  public var reason: String? {
    switch self {
    case .heard: nil
    case .silent(let reason), .failed(let reason): reason
    }
  }

  /// A short word for the status: `heard`, `silent` or `failed`.
  package var label: String {
    switch self {
    case .heard: "heard"
    case .silent: "silent"
    case .failed: "failed"
    }
  }
}

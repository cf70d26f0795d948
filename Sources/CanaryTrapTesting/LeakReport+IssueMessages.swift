import CanaryTrap

extension LeakReport {
  /// The messages test adapters record, one per problem: every problem but a thrown error the
  /// test framework already records itself.
  ///
  /// When something stopped the run (``stopCause``), it comes first, once (left out when
  /// `causeIsRecordedElsewhere`, because the test framework records the error the test threw),
  /// then each leak and each source that could not be read; what the stop left undone (canaries
  /// never delivered, sinks that heard nothing, requests that failed) is one summary after them.
  /// At most ``maxIssueMessages`` are returned: past that, the last says how many more the report holds.
  func issueMessages(excludingError thrown: String? = nil, causeIsRecordedElsewhere: Bool = false)
    -> [IssueMessage]
  {
    let messages: [IssueMessage]
    if let stopCause {
      let cause = causeIsRecordedElsewhere ? [] : [IssueMessage(ReportProblem(.error(stopCause)).message)]
      let kept = problems.dropFirst().filter { problem in
        switch problem.kind {
        case .leak, .failedSource: true
        case .undelivered, .silentSource, .error: false
        }
      }
      messages =
        cause + kept.map { IssueMessage($0.message, plantedAt: $0.plantedAt) }
        + [stoppedRunSummary(excludingError: thrown, causeIsRecordedElsewhere: causeIsRecordedElsewhere)]
        .compactMap { $0.map { IssueMessage($0) } }
    } else {
      messages = problems.compactMap { problem -> IssueMessage? in
        if case .error(let text) = problem.kind, text == thrown { return nil }
        return IssueMessage(problem.message, plantedAt: problem.plantedAt)
      }
    }
    guard messages.count > Self.maxIssueMessages else { return messages }
    let kept = Self.maxIssueMessages - 1
    return Array(messages.prefix(kept))
      + [
        IssueMessage(
          "and \(messages.count - kept) more problems of this run: see its report (CANARY_TRAP_REPORT_DIR)")
      ]
  }

  /// One sentence for what a stopped run left undone: canaries never delivered, sinks that heard
  /// nothing, other errors; nil when it left nothing undone.
  func stoppedRunSummary(excludingError thrown: String?, causeIsRecordedElsewhere: Bool) -> String? {
    let undeliveredLocations = undelivered.map { "\($0.canary.location)" }
    let silent = problemSources.filter { $0.status.label == "silent" }.map(\.name)
    let otherErrors = errors.filter { $0 != stopCause && $0 != thrown }
    var parts: [String] = []
    if !undeliveredLocations.isEmpty {
      parts.append(
        "\(Self.counted(undeliveredLocations.count, "canary", "canaries")) never delivered"
          + " (\(Self.list(undeliveredLocations)))")
    }
    if !silent.isEmpty {
      parts.append("\(Self.counted(silent.count, "sink", "sinks")) that heard nothing (\(Self.list(silent)))")
    }
    if !otherErrors.isEmpty {
      parts.append(
        "\(Self.counted(otherErrors.count, "more error", "more errors")) (\(Self.list(otherErrors)))")
    }
    guard !parts.isEmpty else { return nil }
    let because = causeIsRecordedElsewhere ? "because of the error the test threw" : "because of it"
    return "the run stopped before it could be judged \(because), which left "
      + Self.sentence(parts) + ": see its report (CANARY_TRAP_REPORT_DIR) for each"
  }

  /// `1 canary`, `99 canaries`.
  private static func counted(_ count: Int, _ one: String, _ many: String) -> String {
    "\(count) \(count == 1 ? one : many)"
  }

  /// Up to three items joined by commas, then how many more.
  private static func list(_ items: [String]) -> String {
    items.count <= 3
      ? items.joined(separator: ", ")
      : items.prefix(3).joined(separator: ", ") + " and \(items.count - 3) more"
  }

  /// `a`, `a and b`, `a, b and c`.
  private static func sentence(_ parts: [String]) -> String {
    parts.count <= 1 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
  }

  /// The most issues one report records, so a leaky component does not drown the test log.
  static let maxIssueMessages = 100
}

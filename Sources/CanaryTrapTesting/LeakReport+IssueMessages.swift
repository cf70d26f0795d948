import CanaryTrap

extension LeakReport {
  /// The messages test adapters record, one per problem: every problem but the one the test
  /// framework records itself (`recorded`), because the test threw it.
  ///
  /// When something stopped the run (``stopCause``), it comes first, once, then each leak and
  /// each source that could not be read; what the stop left undone (canaries never delivered,
  /// sinks that heard nothing, requests that failed) is one summary after them.
  /// At most ``maxIssueMessages`` are returned: past that, the last says how many more the report holds.
  func issueMessages(omitting recorded: FrameworkRecorded? = nil) -> [IssueMessage] {
    let messages: [IssueMessage]
    if let stopCause {
      let cause = recorded == .stopCause ? [] : [IssueMessage(ReportProblem(.error(stopCause)).message)]
      let kept = problems.dropFirst().filter { problem in
        switch problem.kind {
        case .leak, .failedSource: true
        case .undelivered, .silentSource, .error: false
        }
      }
      messages =
        cause + kept.map { IssueMessage($0.message, plantedAt: $0.plantedAt) }
        + [stoppedRunSummary(omitting: recorded)].compactMap { $0.map { IssueMessage($0) } }
    } else {
      messages = problems.compactMap { problem -> IssueMessage? in
        if recorded == .testThrew, case .error(let error) = problem.kind, case .testThrew = error.kind {
          return nil
        }
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
  /// nothing, other errors (but the one the test framework records); nil when it left nothing undone.
  func stoppedRunSummary(omitting recorded: FrameworkRecorded?) -> String? {
    let undeliveredLocations = undelivered.map { "\($0.canary.location)" }
    let silent = problemSources.filter { $0.status.label == "silent" }.map(\.name)
    let otherErrors = runErrors.filter { error in
      if error == stopCause { return false }
      if recorded == .testThrew, case .testThrew = error.kind { return false }
      return true
    }.map(\.message)
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
    let because = recorded == .stopCause ? "because of the error the test threw" : "because of it"
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

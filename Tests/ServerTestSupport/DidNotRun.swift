import Testing

/// Records that a test could not do its work here (no IPv6 loopback, a missing tool), so it shows
/// as "passed with a known issue" naming the reason instead of passing with no assertion.
package enum DidNotRun {
  /// The prefix of every such issue's comment.
  package static let prefix = "did not run: "

  /// Records a known issue saying the test did not run, and why.
  package static func record(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    withKnownIssue("\(prefix)\(reason)", sourceLocation: sourceLocation) {
      Issue.record(Comment(rawValue: prefix + reason), sourceLocation: sourceLocation)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix(prefix) }
    }
  }
}

extension LeakReport {
  /// The findings counted but not kept, for the canaries of this report, source by source.
  package var omittedFindings: [OmittedFindings] {
    let counted = sources.flatMap(\.omittedFindings)
    // Most reports omit nothing: the set of a large manifest's canaries is then never built.
    guard !counted.isEmpty else { return [] }
    let known = Set(canaries)
    return counted.filter { known.contains($0.canary) }
  }

  /// Every finding, kept or only counted: exact whatever the cap.
  package var totalFindingCount: Int { findings.count + omittedFindings.reduce(0) { $0 + $1.count } }

  /// One sentence saying how many findings the cap left out, or `nil` when none were.
  var omittedFindingsSummary: String? {
    let omitted = omittedFindings
    guard !omitted.isEmpty else { return nil }
    let total = omitted.reduce(0) { $0 + $1.count }
    return "\(total) more finding\(total == 1 ? "" : "s") counted but not listed"
      + " (at most a fixed number are kept per canary and source; see each source)"
  }

  /// One line per canary and source with omitted findings.
  var omittedFindingsLines: [String] {
    omittedFindings.map { "\($0.count) more of \($0.canary.location) in \($0.source)" }
  }
}

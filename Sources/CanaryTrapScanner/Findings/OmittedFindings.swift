/// How many findings of one canary in one source were counted but not kept, because the source
/// held more than ``ScanOptions/maxFindingsPerCanary`` of them.
package struct OmittedFindings: Sendable, Hashable {
  /// The canary whose extra findings were dropped.
  package var canary: Canary
  /// The source they were found in.
  package var source: String
  /// How many were counted and not kept.
  package var count: Int

  /// Creates a count of omitted findings.
  package init(canary: Canary, source: String, count: Int) {
    self.canary = canary
    self.source = source
    self.count = count
  }
}

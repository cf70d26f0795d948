@testable import CanaryTrapScanner

extension ScannedSource.Status {
  /// The failure reason, or `nil` when the source did not fail.
  var failureReason: String? {
    if case .failed(let reason) = self { return reason }
    return nil
  }
}

import Foundation

extension LeakReport {
  /// SARIF (filled in by the next step).
  func sarifData() -> Data { Data() }
}

import Foundation
import Testing

@testable import CanaryTrap

@Suite("The delivery proof's percent decoding agrees with Foundation's")
struct PercentDecodeTests {
  /// What the proof decoded with before: Foundation's `removingPercentEncoding`, the text with
  /// only `+` replaced when that fails.
  private func foundation(_ text: String, plusIsSpace: Bool) -> String {
    let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : text
    return spaced.removingPercentEncoding ?? spaced
  }

  @Test(
    "valid, invalid and non-UTF-8 escapes, plus signs and plain text",
    arguments: [
      "plain", "a%20b", "card%5Bnumber%5D", "x+y", "x%2By", "%E2%82%AC", "%e2%82%ac", "bad%zz", "bad%2",
      "%", "%%", "%FF%FE", "caf%C3%A9+au+lait", "", "+", "a=b", "%00",
    ])
  func agreesWithFoundation(text: String) {
    for plusIsSpace in [false, true] {
      let decoded = RequestInspection.decode(text, plusIsSpace: plusIsSpace)
      #expect(decoded == foundation(text, plusIsSpace: plusIsSpace), "\(text) plusIsSpace \(plusIsSpace)")
    }
  }
}

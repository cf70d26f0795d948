import Foundation
import Testing

@testable import CanaryTrap

/// A manifest holds at most ``CanaryManifest/maximumCanaryCount`` canaries: one more is refused
/// with the bound in the message, before any canary is read.
@Suite struct ManifestCanaryCapTests {
  /// A manifest whose `canaries` array holds `count` zeros: only the count can be checked.
  static func zeros(_ count: Int) -> Data {
    var text = #"{"version": 1, "canaries": ["#
    text += String(repeating: "0,", count: count - 1) + "0]}"
    return Data(text.utf8)
  }

  @Test func oneCanaryPastTheCapIsRefusedWithTheBound() {
    let maximum = CanaryManifest.maximumCanaryCount
    #expect(throws: ManifestError.tooManyCanaries(count: maximum + 1, maximum: maximum)) {
      try CanaryManifest(jsonData: Self.zeros(maximum + 1))
    }
    let message = ManifestError.tooManyCanaries(count: maximum + 1, maximum: maximum).description
    #expect(message.contains("250001 canaries") && message.contains("at most 250000"), "\(message)")
  }

  @Test func theCapItselfIsAllowed() {
    // At the cap the count passes: what is wrong is the first entry, which is not a canary.
    #expect(throws: ManifestError.invalidField(path: "canaries[0]", expected: "an object")) {
      try CanaryManifest(jsonData: Self.zeros(CanaryManifest.maximumCanaryCount))
    }
  }
}

import Foundation

/// Scans every key and value a `UserDefaults` suite holds, property lists flattened to lines of
/// `key.path = value` (see the content named `user-defaults:SUITE`).
///
/// It reads `dictionaryRepresentation()` of the suite when the scope ends, so values registered
/// or inherited from the global domain appear too; they hold no canary of this run.
public struct UserDefaultsSink: LeakSink, ImmediatelyBeginningSink {
  /// The suite read.
  package let suiteName: String
  /// The name findings use, `user-defaults:` and the suite name unless told otherwise.
  public let name: String

  /// Scans the defaults suite named `suiteName`.
  public init(suiteName: String, name: String? = nil) {
    self.suiteName = suiteName
    self.name = name ?? "user-defaults:\(suiteName)"
  }

  /// The suite's keys and values, flattened; fails if the suite cannot be opened.
  public func collect() async throws -> [SinkContent] {
    guard let defaults = UserDefaults(suiteName: suiteName) else {
      throw SinkError(sink: name, reason: "UserDefaults(suiteName: \"\(suiteName)\") returned nil")
    }
    return [.bytes(PropertyListText.flatten(defaults.dictionaryRepresentation()), name: name)]
  }

  /// Needs no set-up: the whole store is read when the scope ends.
  func beginImmediately(_ window: SinkWindow) throws {}
}

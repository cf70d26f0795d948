import CanaryTrapPrimitives
import Foundation

/// The canaries of one run: mints them for named locations and writes or reads their manifest.
///
/// A set is safe to use from many tasks at once. No value is ever minted twice in a process.
package final class CanarySet: Sendable {
  private let storage: Locked<[Canary]>
  private let generator = CanaryGenerator()

  /// Values minted by any set in this process, so that none repeats.
  private static let mintedValues = Locked(Set<String>())

  /// Creates a set holding `canaries`, for instance those read from a manifest.
  package init(_ canaries: [Canary] = []) {
    storage = Locked(canaries)
  }

  /// Every canary in the set, in the order they were added.
  package var canaries: [Canary] { storage.current }

  /// The number of canaries in the set.
  package var count: Int { storage.withLock { $0.count } }

  /// Mints a fresh canary of `shape` for `location`, adds it to the set and returns it.
  @discardableResult
  package func mint(_ shape: CanaryShape, at location: CanaryLocation) -> Canary {
    let canary = Canary(
      value: Self.uniqueValue(shape, generator: generator), location: location, shape: shape)
    storage.withLock { $0.append(canary) }
    return canary
  }

  /// Adds a canary minted elsewhere, after checking that it is long enough to scan for.
  package func add(_ canary: Canary) throws {
    try CanaryManifest.validate(canary, at: count)
    storage.withLock { $0.append(canary) }
  }

  /// The canary whose value is `value`, if the set holds one.
  package func canary(withValue value: String) -> Canary? {
    storage.withLock { $0.first { $0.value == value } }
  }

  /// The canaries planted at `location`.
  package func canaries(at location: CanaryLocation) -> [Canary] {
    storage.withLock { $0.filter { $0.location == location } }
  }

  /// The manifest describing this set.
  package var manifest: CanaryManifest { CanaryManifest(canaries: canaries) }

  private static func uniqueValue(_ shape: CanaryShape, generator: CanaryGenerator) -> String {
    while true {
      let value = generator.makeValue(shape)
      let isNew = mintedValues.withLock { $0.insert(value).inserted }
      if isNew { return value }
    }
  }
}

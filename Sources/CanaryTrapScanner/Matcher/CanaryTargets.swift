/// One canary's literals, rebuilt from its value when a q-gram of one of them is found: the
/// compiled set keeps no literal bytes, only their q-grams in the index.
final class CanaryTargets {
  /// The canary's targets, in the order they were numbered when the set was compiled.
  let targets: [CompiledMatcher.Target]
  let anchors: [AnchorInfo]
  /// The targets' bytes back to back, with 8 readable bytes past the end.
  let bytes: UnsafeMutablePointer<UInt8>

  init(_ laidOut: MatcherTargets) {
    targets = laidOut.targets
    anchors = laidOut.anchors
    bytes = .allocate(capacity: laidOut.storage.count + 8)
    bytes.initialize(repeating: 0, count: laidOut.storage.count + 8)
    laidOut.storage.withUnsafeBufferPointer {
      if let base = $0.baseAddress { bytes.update(from: base, count: $0.count) }
    }
  }

  deinit { bytes.deallocate() }
}

/// The canaries whose literals a scan rebuilt lately, so that a canary found many times is
/// rebuilt once: at most ``capacity`` of them, one per slot, a newer one replacing an older.
struct CanaryTargetsCache {
  /// The most canaries kept: a few megabytes at worst.
  static let capacity = 512

  private var slots: [(canary: Int32, targets: CanaryTargets)?] = []
  /// How many times literals were rebuilt, for tests.
  private(set) var rebuilds = 0

  /// The targets of `canary`, rebuilt with `build` unless kept.
  mutating func targets(of canary: Int32, build: () -> CanaryTargets) -> CanaryTargets {
    if slots.isEmpty { slots = Array(repeating: nil, count: Self.capacity) }
    let slot = Int(canary) % Self.capacity
    if let kept = slots[slot], kept.canary == canary { return kept.targets }
    let built = build()
    rebuilds += 1
    slots[slot] = (canary, built)
    return built
  }
}

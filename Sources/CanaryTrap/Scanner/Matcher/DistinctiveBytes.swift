/// Which bytes of a canary's value identify it, so that a fragment is reported only when it holds
/// enough of them.
///
/// Every email canary ends in `@example.invalid` and every JWT canary starts with the same header:
/// a 16-byte run of that shared text would otherwise "match" another test's canary, or any
/// ordinary JWT in a log.
enum DistinctiveBytes {
  /// How many identifying bytes a fragment must hold (or all of `minFragment`, when smaller):
  /// at 4 to 5 random bits per byte, no run that long matches by chance.
  static let required = 12

  /// Running counts of identifying bytes: `counts[i]` is how many of `value[0..<i]` identify it.
  static func prefixCounts(of value: [UInt8]) -> [Int32] {
    var shared = [Bool](repeating: false, count: value.count)
    let folded = value.map { ByteFold.table[Int($0)] }
    for part in CanaryGenerator.sharedParts {
      let needle = part.utf8.map { ByteFold.table[Int($0)] }
      guard !needle.isEmpty, needle.count <= folded.count else { continue }
      for start in 0...(folded.count - needle.count)
      where folded[start..<start + needle.count].elementsEqual(needle) {
        for index in start..<start + needle.count { shared[index] = true }
      }
    }
    var counts = [Int32](repeating: 0, count: value.count + 1)
    for index in value.indices { counts[index + 1] = counts[index] + (shared[index] ? 0 : 1) }
    return counts
  }
}

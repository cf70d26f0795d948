/// Which bytes of a canary's value identify it, so that a fragment is reported only when it holds
/// enough of them.
///
/// Every email canary ends in `@example.invalid`, and every JWT canary starts with the same
/// header and carries the same JSON keys at the same offsets: a 16-byte run of that shared text
/// would otherwise "match" another test's canary, or any ordinary JWT in a log.
enum DistinctiveBytes {
  /// How many identifying bytes a fragment must hold (or all of `minFragment`, when smaller):
  /// at 4 to 5 random bits per byte, no run that long matches by chance.
  static let required = 12

  /// Running counts of identifying bytes: `counts[i]` is how many of `value[0..<i]` identify it.
  static func prefixCounts(of value: [UInt8], shape: CanaryShape?) -> [Int32] {
    var shared = sharedText(in: value)
    if let shape, let template = templates[shape], matches(value, template) {
      for index in value.indices where template[index] != nil { shared[index] = true }
    }
    var counts = [Int32](repeating: 0, count: value.count + 1)
    for index in value.indices { counts[index + 1] = counts[index] + (shared[index] ? 0 : 1) }
    return counts
  }

  /// Marks every occurrence of ``CanaryGenerator/sharedParts`` in `value`, in any letter case.
  private static func sharedText(in value: [UInt8]) -> [Bool] {
    var shared = [Bool](repeating: false, count: value.count)
    ByteFold.table.withUnsafeBufferPointer { fold in
      value.withUnsafeBufferPointer { value in
        shared.withUnsafeMutableBufferPointer { shared in
          for needle in foldedSharedParts where !needle.isEmpty && needle.count <= value.count {
            needle.withUnsafeBufferPointer { needle in
              for start in 0...(value.count - needle.count) {
                var index = 0
                while index < needle.count, fold[Int(value[start &+ index])] == needle[index] { index &+= 1 }
                guard index == needle.count else { continue }
                for marked in start..<start + needle.count { shared[marked] = true }
              }
            }
          }
        }
      }
    }
    return shared
  }

  /// ``CanaryGenerator/sharedParts``, case-folded.
  private static let foldedSharedParts = CanaryGenerator.sharedParts.map { part in
    part.utf8.map { ByteFold.table[Int($0)] }
  }

  /// For each shape whose minted values all have one length, the byte every value holds at each
  /// position, or `nil` where values differ: learned from freshly minted samples.
  private static let templates: [CanaryShape: [UInt8?]] = {
    let generator = CanaryGenerator()
    var templates: [CanaryShape: [UInt8?]] = [:]
    for shape in CanaryShape.allCases {
      let samples = (0..<24).map { _ in Array(generator.makeValue(shape).utf8) }
      guard let first = samples.first, samples.allSatisfy({ $0.count == first.count }) else { continue }
      templates[shape] = first.indices.map { index in
        samples.allSatisfy { $0[index] == first[index] } ? first[index] : nil
      }
    }
    return templates
  }()

  /// Whether `value` has the template's length and its fixed bytes: a value this library minted.
  private static func matches(_ value: [UInt8], _ template: [UInt8?]) -> Bool {
    value.count == template.count
      && zip(value, template).allSatisfy { byte, fixed in fixed == nil || fixed == byte }
  }
}

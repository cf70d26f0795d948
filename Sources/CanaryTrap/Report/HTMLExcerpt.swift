import Foundation

/// Marks the canary in a finding's excerpt for the HTML page: finds the canary's bytes in the
/// finding's encoding, rendered as excerpts render them, and wraps them in `<mark>`.
struct HTMLExcerptMarker {
  /// The rendered literals of each canary seen so far, by value and encoding chain.
  private var literals: [String: [String: [String]]] = [:]

  /// The excerpt as escaped HTML with the canary's form in it marked, or only escaped when it is
  /// not found (a fragment too short to show, an anchor of a wrapped escape).
  mutating func markup(for finding: LeakFinding) -> String {
    let excerpt = finding.excerpt
    guard let range = range(of: finding, in: excerpt) else { return excerpt.markupEscaped }
    return String(excerpt[..<range.lowerBound]).markupEscaped + "<mark>"
      + String(excerpt[range]).markupEscaped + "</mark>" + String(excerpt[range.upperBound...]).markupEscaped
  }

  private mutating func range(of finding: LeakFinding, in excerpt: String) -> Range<String.Index>? {
    let value = finding.canary.value
    switch finding.encodings.outermost {
    case .caseInsensitive:
      return excerpt.range(of: value, options: .caseInsensitive)
    case .fragment:
      return Self.longestFragment(of: value, in: excerpt)
    default:
      break
    }
    for literal in rendered(finding) {
      if let range = excerpt.range(of: literal) ?? excerpt.range(of: literal, options: .caseInsensitive) {
        return range
      }
    }
    return nil
  }

  /// Every literal the scanner searches for the finding's canary in its chain, longest first,
  /// as an excerpt renders bytes.
  private mutating func rendered(_ finding: LeakFinding) -> [String] {
    let chain = finding.encoding
    if let known = literals[finding.canary.value]?[chain] { return known }
    var byChain: [String: [String]] = [:]
    for pattern in PatternEncoder.patterns(for: finding.canary, encodings: Set(ScanEncoding.allCases)) {
      let text = pattern.bytes.withUnsafeBufferPointer { Excerpt.render($0) }
      byChain[pattern.chain.description, default: []].append(text)
    }
    for key in byChain.keys { byChain[key]?.sort { $0.count > $1.count } }
    literals[finding.canary.value] = byChain
    return byChain[chain] ?? []
  }

  /// The longest run of at least 6 characters of `value` in `excerpt`.
  static func longestFragment(of value: String, in excerpt: String) -> Range<String.Index>? {
    let characters = Array(value)
    var length = characters.count
    while length >= 6 {
      for start in 0...(characters.count - length) {
        let piece = String(characters[start..<start + length])
        if let range = excerpt.range(of: piece) { return range }
      }
      length -= 1
    }
    return nil
  }
}

import Foundation

/// The encodings a canary went through before it reached a sink, innermost first:
/// `[.jsonEscaped, .base64]` is the value JSON-escaped, then base64-encoded.
///
/// Reports render it as the step names joined by an arrow, such as `json-escaped → base64`; a
/// single step renders as its own name (`raw`, `percent`, `sha256-hex`).
package struct EncodingChain: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The steps, innermost (applied first) to outermost; never empty.
  package let steps: [ScanEncoding]

  /// A chain of `steps`, innermost first; an empty list means the raw value.
  package init(_ steps: [ScanEncoding]) {
    self.steps = steps.isEmpty ? [.raw] : steps
  }

  /// A chain of one encoding.
  package init(_ encoding: ScanEncoding) { steps = [encoding] }

  /// The chain of one encoding, built once: a compiled set names one for each of its literals.
  static func single(_ encoding: ScanEncoding) -> EncodingChain { singles[encoding.ordinal] }

  private static let singles = ScanEncoding.allCases.map { EncodingChain($0) }

  /// Parses a rendered chain such as `json-escaped → base64` (`->` is accepted too); `nil` when a
  /// step is not a ``ScanEncoding`` name.
  package init?(name: String) {
    let parts = name.replacingOccurrences(of: "->", with: "→").split(separator: "→")
    var steps: [ScanEncoding] = []
    for part in parts {
      guard let step = ScanEncoding(rawValue: part.trimmingCharacters(in: .whitespaces)) else { return nil }
      steps.append(step)
    }
    guard !steps.isEmpty else { return nil }
    self.steps = steps
  }

  /// The outermost step: the form the bytes have in the sink.
  package var outermost: ScanEncoding { steps[steps.count - 1] }

  /// The step names joined by ` → `, innermost first.
  package var description: String { steps.map(\.rawValue).joined(separator: " → ") }

  /// Orders chains by their rendered names, so reports sort the same way every run.
  package static func < (lhs: EncodingChain, rhs: EncodingChain) -> Bool { lhs.description < rhs.description }
}

/// A verified match inside one buffer, before overlapping matches are resolved.
struct MatchCandidate: Hashable {
  /// How specific a match is: lower wins when matches of one canary overlap.
  enum Rank: UInt8, Comparable {
    /// An exact encoded literal: raw, base64, hex, a digest...
    case exact = 0
    /// The raw value with letters in another case.
    case caseInsensitive = 1
    /// A run of the value shorter than the value.
    case fragment = 2

    static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The index of the canary in the scanner's canary list.
  var canary: Int32
  /// The id of the chain the match names, in ``CompiledMatcher/chains``.
  var chain: UInt16
  var rank: Rank
  /// Start and end (exclusive) relative to the buffer.
  var start: Int
  var end: Int
  /// Found in bytes decoded from the text (``DecodingPass``): reported by the buffer that
  /// decoded its run, whatever the overlap.
  var decoded = false
  /// Placed on the whole run it was decoded from (a compressed payload): its excerpt shows the
  /// run's start only, since the run holds more than the canary (the app's other data, in a
  /// form anyone can decode).
  var coversRun = false
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The search of one buffer, the main pass and the line junction pass, cut in two halves
/// searched at once when the buffer is large, finding exactly the candidates one search finds.
///
/// Main pass: the first half is searched up to `cut = half + maxLength` and keeps the candidates
/// ending before `cut`; the second is searched from `half` and keeps those ending at `cut` or
/// later. No candidate is longer than `maxLength`, so one of the second's starts at `half` or
/// later: each candidate lies whole inside the half that keeps it, and is kept once. A fragment
/// the first half cut short at its end ends at `cut` and is dropped there; one the second half
/// cut short at its start would be longer than `maxLength`.
///
/// Junction pass: each junction belongs to the line it ends, and the lines are parted at the
/// start of the line holding `half`, so each junction is searched once, by one half, over the
/// whole buffer.
struct SplitSearch {
  /// The fewest bytes worth a second thread.
  static let bytesWorthASecondThread = 256 << 10

  /// Whether this machine has a second processor to search on.
  static let hasSecondProcessor = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

  /// The literals of the canaries the second half found lately.
  private var secondCache = CanaryTargetsCache()
  /// The second half's junction search, made on the first split.
  private var secondJunctions: LineJunctionSearch?
  /// Whether to split buffers at all; tests compare both ways.
  var splits = hasSecondProcessor

  /// Appends every verified match lying fully inside `text[0..<count]` to `candidates`, as
  /// ``CompiledMatcher/findCandidates(in:count:cache:into:)`` does, then every match across one
  /// of its line breaks, as `junctions` finds them (`firstLineHead` as for
  /// ``LineJunctionSearch``); on two threads when `text` is large enough. `text` must have 8
  /// readable bytes past `count`.
  mutating func findCandidates(
    _ matcher: CompiledMatcher, junctions: LineJunctionSearch, in text: UnsafePointer<UInt8>, count: Int,
    firstLineHead: [UInt8], cache: inout CanaryTargetsCache, into candidates: inout [MatchCandidate]
  ) {
    let half = count / 2
    let cut = half + matcher.maxLength
    guard splits, count >= Self.bytesWorthASecondThread, cut < count else {
      matcher.findCandidates(in: text, count: count, cache: &cache, into: &candidates)
      junctions.search(
        text, count: count, lines: 0..<count, firstLineHead: firstLineHead, cache: &cache, into: &candidates)
      return
    }
    // The second half's junctions start with the line holding `half`; with no line break before
    // it, the first half searches them all.
    let secondLines = EncodedRun.last(0x0A, in: text, 0..<half).map { $0 + 1 } ?? count
    let halves = Halves(
      text: text, first: cache, second: secondCache, firstJunctions: junctions,
      secondJunctions: secondJunctions ?? LineJunctionSearch(matcher: matcher, isEnabled: junctions.isEnabled)
    )
    DedicatedThreads.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        matcher.findCandidates(in: halves.text, count: cut, cache: &halves.first, into: &halves.foundFirst)
        halves.firstJunctions.search(
          halves.text, count: count, lines: 0..<secondLines, firstLineHead: firstLineHead,
          cache: &halves.first, into: &halves.junctionsFirst)
      } else {
        matcher.findCandidates(
          in: halves.text + half, count: count - half, cache: &halves.second, into: &halves.foundSecond)
        halves.secondJunctions.search(
          halves.text, count: count, lines: secondLines..<count, firstLineHead: [], cache: &halves.second,
          into: &halves.junctionsSecond)
      }
    }
    cache = halves.first
    secondCache = halves.second
    secondJunctions = halves.secondJunctions
    candidates.append(contentsOf: halves.foundFirst.lazy.filter { $0.end < cut })
    for var candidate in halves.foundSecond where candidate.end + half >= cut {
      candidate.start += half
      candidate.end += half
      candidates.append(candidate)
    }
    candidates += halves.junctionsFirst
    candidates += halves.junctionsSecond
  }
}

/// What the two threads of a ``SplitSearch`` share: each writes only its own half's fields,
/// and the caller reads them after both threads finished.
private final class Halves: @unchecked Sendable {
  let text: UnsafePointer<UInt8>
  var first: CanaryTargetsCache
  var second: CanaryTargetsCache
  let firstJunctions: LineJunctionSearch
  let secondJunctions: LineJunctionSearch
  var foundFirst: [MatchCandidate] = []
  var foundSecond: [MatchCandidate] = []
  var junctionsFirst: [MatchCandidate] = []
  var junctionsSecond: [MatchCandidate] = []

  init(
    text: UnsafePointer<UInt8>, first: CanaryTargetsCache, second: CanaryTargetsCache,
    firstJunctions: LineJunctionSearch, secondJunctions: LineJunctionSearch
  ) {
    self.text = text
    self.first = first
    self.second = second
    self.firstJunctions = firstJunctions
    self.secondJunctions = secondJunctions
  }
}

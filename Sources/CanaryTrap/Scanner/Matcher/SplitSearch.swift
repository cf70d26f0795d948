#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The candidate search of a large buffer cut in two halves searched at once, finding exactly
/// the candidates one search of the whole buffer finds.
///
/// The first half is searched up to `cut = half + maxLength` and keeps the candidates ending
/// before `cut`; the second is searched from `half` and keeps those ending at `cut` or later.
/// No candidate is longer than `maxLength`, so one of the second's starts at `half` or later:
/// each candidate lies whole inside the half that keeps it, and is kept once. A fragment the
/// first half cut short at its end ends at `cut` and is dropped there; one the second half
/// cut short at its start would be longer than `maxLength`.
struct SplitSearch {
  /// The fewest bytes worth a second thread.
  static let bytesWorthASecondThread = 256 << 10

  /// Whether this machine has a second processor to search on.
  static let hasSecondProcessor = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

  /// The literals of the canaries the second half found lately.
  var secondCache = CanaryTargetsCache()
  /// Whether to split buffers at all; tests compare both ways.
  var splits = hasSecondProcessor

  /// Appends every verified match lying fully inside `text[0..<count]` to `candidates`, as
  /// ``CompiledMatcher/findCandidates(in:count:cache:into:)`` does, on two threads when `text`
  /// is large enough. `text` must have 8 readable bytes past `count`.
  mutating func findCandidates(
    _ matcher: CompiledMatcher, in text: UnsafePointer<UInt8>, count: Int, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    let half = count / 2
    let cut = half + matcher.maxLength
    guard splits, count >= Self.bytesWorthASecondThread, cut < count else {
      matcher.findCandidates(in: text, count: count, cache: &cache, into: &candidates)
      return
    }
    let halves = Halves(text: text, first: cache, second: secondCache)
    DedicatedThreads.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        matcher.findCandidates(in: halves.text, count: cut, cache: &halves.first, into: &halves.foundFirst)
      } else {
        matcher.findCandidates(
          in: halves.text + half, count: count - half, cache: &halves.second, into: &halves.foundSecond)
      }
    }
    cache = halves.first
    secondCache = halves.second
    candidates.append(contentsOf: halves.foundFirst.lazy.filter { $0.end < cut })
    for var candidate in halves.foundSecond where candidate.end + half >= cut {
      candidate.start += half
      candidate.end += half
      candidates.append(candidate)
    }
  }
}

/// What the two threads of a ``SplitSearch`` share: each writes only its own half's fields,
/// and the caller reads them after both threads finished.
private final class Halves: @unchecked Sendable {
  let text: UnsafePointer<UInt8>
  var first: CanaryTargetsCache
  var second: CanaryTargetsCache
  var foundFirst: [MatchCandidate] = []
  var foundSecond: [MatchCandidate] = []

  init(text: UnsafePointer<UInt8>, first: CanaryTargetsCache, second: CanaryTargetsCache) {
    self.text = text
    self.first = first
    self.second = second
  }
}

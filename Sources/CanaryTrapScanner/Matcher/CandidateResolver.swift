/// Keeps the most specific match where matches of one canary overlap.
///
/// Exact encoded literals beat case-insensitive matches, which beat fragments; among matches of
/// equal rank the earlier (then the longer) one wins, and of two on the same bytes the one found
/// forward. Matches of different canaries do not
/// suppress each other, with one exception: a fragment is dropped when a match of another canary
/// covers it, because bytes several canaries share (such as the fixed header of JWT canaries)
/// do not identify any of them.
enum CandidateResolver {
  /// The accepted matches, grouped by canary, each group in start order. `maxLength` bounds the
  /// length of any candidate.
  static func resolve(_ candidates: [MatchCandidate], maxLength: Int) -> [MatchCandidate] {
    let accepted = resolveEachCanary(candidates)
    guard accepted.contains(where: { $0.rank == .fragment }) else { return accepted }
    let byStart = candidates.sorted { $0.start < $1.start }
    return accepted.filter { match in
      match.rank != .fragment || !coveredByAnotherCanary(match, byStart, maxLength: maxLength)
    }
  }

  /// Whether a candidate of another canary spans all of `fragment`.
  private static func coveredByAnotherCanary(
    _ fragment: MatchCandidate, _ byStart: [MatchCandidate], maxLength: Int
  ) -> Bool {
    var low = 0
    var high = byStart.count
    while low < high {  // first candidate that may reach over the fragment
      let middle = (low + high) / 2
      if byStart[middle].start < fragment.start - maxLength { low = middle + 1 } else { high = middle }
    }
    var index = low
    while index < byStart.count, byStart[index].start <= fragment.start {
      let other = byStart[index]
      if other.canary != fragment.canary && other.end >= fragment.end { return true }
      index += 1
    }
    return false
  }

  private static func resolveEachCanary(_ candidates: [MatchCandidate]) -> [MatchCandidate] {
    // Where a decoded match and a forward one cover the same bytes, the forward one is kept
    // (found in the text as it stands), then the lower chain id: the same in every run.
    let sorted = droppingWiderDecoded(candidates).sorted {
      ($0.canary, $0.rank.rawValue, $0.start, $1.end, $0.decoded ? 1 : 0, $0.chain)
        < ($1.canary, $1.rank.rawValue, $1.start, $0.end, $1.decoded ? 1 : 0, $1.chain)
    }
    var result: [MatchCandidate] = []
    var index = 0
    while index < sorted.count {
      let canary = sorted[index].canary
      var accepted: [MatchCandidate] = []
      while index < sorted.count, sorted[index].canary == canary {
        let rank = sorted[index].rank
        var taken: [MatchCandidate] = []
        var lastEnd = Int.min
        while index < sorted.count, sorted[index].canary == canary, sorted[index].rank == rank {
          let candidate = sorted[index]
          index += 1
          if candidate.start < lastEnd || overlaps(candidate, accepted) { continue }
          taken.append(candidate)
          lastEnd = candidate.end
        }
        accepted = merge(accepted, taken)
      }
      result += accepted
    }
    return result
  }

  /// `candidates` without each decoded match whose span holds that of another decoded match of
  /// the same canary, rank and chain: a payload a wrapped-line join read together with the next
  /// line's (as a gzip stream's second member) is found in both, and the narrower one places
  /// the finding on its own line.
  private static func droppingWiderDecoded(_ candidates: [MatchCandidate]) -> [MatchCandidate] {
    var decoded = candidates.indices.filter { candidates[$0].decoded }
    guard decoded.count > 1 else { return candidates }
    decoded.sort {
      let (a, b) = (candidates[$0], candidates[$1])
      return (a.canary, a.chain, a.rank.rawValue, a.start, b.end) < (
        b.canary, b.chain, b.rank.rawValue, b.start, a.end
      )
    }
    var wider = Set<Int>()
    for (position, index) in decoded.enumerated() {
      let outer = candidates[index]
      // Those after it in order start within it; one ending within it too (not the same span) is narrower.
      for other in decoded[(position + 1)...].lazy.map({ candidates[$0] }) {
        guard other.canary == outer.canary, other.chain == outer.chain, other.rank == outer.rank,
          other.start < outer.end
        else { break }
        if other.end <= outer.end && (other.start, other.end) != (outer.start, outer.end) {
          wider.insert(index)
          break
        }
      }
    }
    guard !wider.isEmpty else { return candidates }
    return candidates.indices.filter { !wider.contains($0) }.map { candidates[$0] }
  }

  /// Whether `candidate` overlaps any of `accepted` (sorted by start, pairwise disjoint).
  private static func overlaps(_ candidate: MatchCandidate, _ accepted: [MatchCandidate]) -> Bool {
    var low = 0
    var high = accepted.count
    while low < high {  // first accepted match ending after the candidate starts
      let middle = (low + high) / 2
      if accepted[middle].end <= candidate.start { low = middle + 1 } else { high = middle }
    }
    return low < accepted.count && accepted[low].start < candidate.end
  }

  private static func merge(_ first: [MatchCandidate], _ second: [MatchCandidate]) -> [MatchCandidate] {
    if first.isEmpty { return second }
    if second.isEmpty { return first }
    var merged: [MatchCandidate] = []
    merged.reserveCapacity(first.count + second.count)
    var (i, j) = (0, 0)
    while i < first.count || j < second.count {
      if j == second.count || (i < first.count && first[i].start <= second[j].start) {
        merged.append(first[i])
        i += 1
      } else {
        merged.append(second[j])
        j += 1
      }
    }
    return merged
  }
}

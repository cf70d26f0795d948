import Foundation
import Testing

@testable import CanaryTrapScanner

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The q-gram index holds every entry it was given, each in its own hash bucket and in both
/// filters, whether it was filled and sorted on one thread (a small set) or on two (a large one).
@Suite struct GramIndexTests {
  /// An index of `count` entries with pseudo-random q-grams, made from a fixed seed.
  static func index(of count: Int) -> (index: GramIndex, grams: [UInt64]) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var grams: [UInt64] = []
    grams.reserveCapacity(count)
    let entries = malloc(max(1, count) * MemoryLayout<GramIndex.Entry>.stride)!
      .assumingMemoryBound(to: GramIndex.Entry.self)
    for number in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // A few grams repeat, as the q-grams many canaries share do.
      let gram = number % 97 == 0 ? 0x6372_6E79 : state
      grams.append(gram)
      (entries + number).initialize(to: GramIndex.Entry(gram: gram, target: UInt32(number), info: 0))
    }
    return (GramIndex(entries: entries, count: count), grams)
  }

  /// Every bucket holds only its own entries, no entry is lost or repeated, and both filters
  /// hold every q-gram.
  static func checkInvariants(_ index: GramIndex, grams: [UInt64]) {
    var seen = [Bool](repeating: false, count: grams.count)
    var misplaced = 0
    for bucket in 0..<index.bucketCount {
      for slot in Int(index.bucketStarts[bucket])..<Int(index.bucketStarts[bucket + 1]) {
        let entry = index.entries[slot]
        if index.bucket(of: entry.gram) != bucket { misplaced += 1 }
        seen[Int(entry.target)] = true
        #expect(grams[Int(entry.target)] == entry.gram)
      }
    }
    #expect(misplaced == 0, "\(misplaced) entries outside their bucket")
    #expect(Int(index.bucketStarts[index.bucketCount]) == grams.count)
    #expect(seen.allSatisfy { $0 }, "\(seen.filter { !$0 }.count) entries lost")
    var missing = 0
    for gram in grams {
      let hash = gram &* ByteFold.hashMultiplier
      let bits = GramIndex.filterBits(hash)
      let second = ByteFold.secondHash(gram)
      let secondBits = GramIndex.filterBits(second)
      if index.bitset[Int(hash >> index.bitsetShift)] & bits != bits
        || index.confirmBitset[Int(second >> index.bitsetShift)] & secondBits != secondBits
      {
        missing += 1
      }
    }
    #expect(missing == 0, "\(missing) q-grams missing from the filters")
  }

  @Test func aSmallIndexIsFilledAndSortedOnOneThread() {
    let count = GramIndex.entriesWorthAThread / 4
    let (index, grams) = Self.index(of: count)
    Self.checkInvariants(index, grams: grams)
  }

  @Test func aLargeIndexIsFilledAndSortedOnTwoThreadsAlike() {
    let count = GramIndex.entriesWorthAThread * 2 + 12_345
    let (index, grams) = Self.index(of: count)
    Self.checkInvariants(index, grams: grams)
  }

  @Test func theInvariantCheckCatchesAMisplacedEntry() {
    // The twin: the same check on an index whose entries were swapped across buckets fails.
    let (index, grams) = Self.index(of: 1_000)
    var swapped = false
    outer: for bucket in 0..<index.bucketCount
    where index.bucketStarts[bucket + 1] > index.bucketStarts[bucket] {
      for other in (bucket + 1)..<index.bucketCount
      where index.bucketStarts[other + 1] > index.bucketStarts[other]
        && index.entries[Int(index.bucketStarts[other])].gram
          != index.entries[Int(index.bucketStarts[bucket])].gram
      {
        let (first, second) = (Int(index.bucketStarts[bucket]), Int(index.bucketStarts[other]))
        (index.entries[first], index.entries[second]) = (index.entries[second], index.entries[first])
        swapped = true
        break outer
      }
    }
    #expect(swapped)
    withKnownIssue("two entries sit in each other's bucket") {
      Self.checkInvariants(index, grams: grams)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("outside their bucket") }
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One pass over a canary set: each canary's literals built, their q-grams indexed, its value
/// laid out, and the literals dropped before the next canary.
///
/// Sets of a few hundred canaries or more are compiled in rounds of ``Part``s, one per processor
/// (at most one per ``canariesPerWorker`` canaries), merged in canary order:
/// what is compiled does not depend on the number of processors, and a round holds only a few
/// megabytes beyond the index itself.
struct Compilation {
  /// Every chain a canary can name (see ``MatcherTargets/completeChainTable``).
  let chains = MatcherTargets.completeChainTable
  var values = ValueStore.Builder()
  var targetStarts: [UInt32] = []
  /// The index entries, grown with `realloc` (which moves large blocks without a second copy).
  var entries: UnsafeMutablePointer<GramIndex.Entry>
  var entryCount = 0
  private var entryCapacity = 0
  private var targetCount = 0
  /// The shortest literal (`Int.max` when there is none), and whether any value is searched.
  var shortest = Int.max
  var hasValues = false
  var maxLength = 0
  /// The junction filter's bits, set by the workers as they build each literal.
  let junctionBits: JunctionFilter.Builder
  /// The bits of the filter of the literals holding a space or a tab, for junctions whose
  /// continuation starts with one: a small set's filter, probed without leaving the cache.
  let blankJunctionBits: JunctionFilter.Builder

  /// Canaries each processor compiles per round.
  static let canariesPerPart = 2048

  /// The fewest canaries worth a processor of their own: a scope's few hundred canaries are
  /// compiled on every processor too, as its scanner is built while its requests wait.
  static let canariesPerWorker = 128

  init(canaries: [Canary], encodings: Set<ScanEncoding>, keepsValues: Bool, layout: IndexLayout) {
    entryCapacity = max(64, canaries.count * 16)
    entries = Self.allocate(entryCapacity)
    targetStarts.reserveCapacity(canaries.count + 1)
    let processors = max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    let workers = max(1, min(processors, canaries.count / Self.canariesPerWorker))
    let grams = Self.junctionGramEstimate(canaries: canaries, encodings: encodings, keepsValues: keepsValues)
    let junctionBits = JunctionFilter.Builder(estimatedGrams: grams, workers: workers)
    self.junctionBits = junctionBits
    let blankCanaries = canaries.reduce(0) { $0 + (CompiledMatcher.mayHoldBlanks($1) ? 1 : 0) }
    let blankJunctionBits = JunctionFilter.Builder(
      estimatedGrams: grams / max(1, canaries.count) * blankCanaries,
      workers: blankCanaries > 0 ? workers : 0,
      maxBits: JunctionFilter.maxBlankBits)
    self.blankJunctionBits = blankJunctionBits
    var start = 0
    while start < canaries.count {
      let end = min(canaries.count, start + Self.canariesPerPart * workers)
      let slices = (0..<workers).map { worker in
        let size = (end - start + workers - 1) / workers
        return min(end, start + worker * size)..<min(end, start + (worker + 1) * size)
      }
      let chains = self.chains
      let parts = PartSlots(count: workers)
      DedicatedThreads.concurrentPerform(iterations: workers) { worker in
        parts.slots[worker] = Part(
          canaries: canaries, slices[worker], chains: chains, encodings: encodings, keepsValues: keepsValues,
          layout: layout, junctionBits: junctionBits, blankJunctionBits: blankJunctionBits, worker: worker)
      }
      for part in parts.slots { merge(part!) }
      parts.release()
      if start == 0 { reserve(entryCount / max(1, end) * canaries.count * 21 / 20) }
      start = end
    }
    precondition(targetCount < Int(UInt32.max), "too many literals to number")
    targetStarts.append(UInt32(targetCount))
  }

  private mutating func merge(_ part: Part) {
    let base = UInt32(targetCount)
    for count in part.targetCounts {
      targetStarts.append(UInt32(targetCount))
      targetCount += count
    }
    reserve(entryCount + part.entries.count)
    for var entry in part.entries {
      if !EntryInfo.isValue(entry.info) { entry.target += base }
      (entries + entryCount).initialize(to: entry)
      entryCount += 1
    }
    values.append(contentsOf: part.values)
    shortest = min(shortest, part.shortest)
    hasValues = hasValues || part.hasValues
    maxLength = max(maxLength, part.maxLength)
  }

  private mutating func reserve(_ capacity: Int) {
    guard capacity > entryCapacity else { return }
    let capacity = max(capacity, entryCapacity + entryCapacity / 2)
    let bytes = capacity * MemoryLayout<GramIndex.Entry>.stride
    guard let grown = realloc(entries, bytes) else {
      fatalError("cannot allocate \(bytes) bytes for the index")
    }
    entries = grown.assumingMemoryBound(to: GramIndex.Entry.self)
    entryCapacity = capacity
  }

  private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<GramIndex.Entry> {
    let bytes = capacity * MemoryLayout<GramIndex.Entry>.stride
    guard let memory = malloc(bytes) else { fatalError("cannot allocate \(bytes) bytes for the index") }
    return memory.assumingMemoryBound(to: GramIndex.Entry.self)
  }

  /// Frees the entries and the junction filters' bits of a pass that is compiled again.
  func releaseEntries() {
    free(entries)
    junctionBits.release()
    blankJunctionBits.release()
  }

  /// About how many q-grams the junction filter will hold: from four canaries spread over a set
  /// of more than 64, else a generous 1,024 per canary (the filter's smallest size or a little more).
  private static func junctionGramEstimate(
    canaries: [Canary], encodings: Set<ScanEncoding>, keepsValues: Bool
  )
    -> Int
  {
    guard canaries.count > 64 else { return canaries.count * 1024 }
    let sampled = 4
    var laidOut = MatcherTargets(chains: MatcherTargets.completeChainTable)
    for sample in 0..<sampled {
      let index = sample * (canaries.count - 1) / (sampled - 1)
      laidOut.append(
        canaries[index], index: index, encodings: encodings, keepsValues: keepsValues,
        confirmingAnchors: false)
    }
    let grams = laidOut.targets.reduce(0) { $0 + JunctionFilter.gramCount(length: $1.length) }
    return grams * canaries.count / sampled
  }
}

/// One slot per worker of a round, each written by its worker alone, read once all are done.
private struct PartSlots: @unchecked Sendable {
  let slots: UnsafeMutableBufferPointer<Part?>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  func release() {
    slots.deinitialize()
    slots.deallocate()
  }
}

/// A slice of canaries compiled on its own: literal entries number the slice's literals from 0.
private struct Part {
  var values = ValueStore.Builder()
  /// The number of literals of each canary.
  var targetCounts: [Int] = []
  var entries: [GramIndex.Entry] = []
  var shortest = Int.max
  var hasValues = false
  var maxLength = 0

  init(
    canaries: [Canary], _ slice: Range<Int>, chains: MatcherTargets.ChainTable, encodings: Set<ScanEncoding>,
    keepsValues: Bool, layout: IndexLayout, junctionBits: JunctionFilter.Builder,
    blankJunctionBits: JunctionFilter.Builder, worker: Int
  ) {
    var targetCount = 0
    var laidOut = MatcherTargets(chains: chains)
    for index in slice {
      laidOut.removeTargets()
      laidOut.append(
        canaries[index], index: index, encodings: encodings, keepsValues: keepsValues,
        confirmingAnchors: false)
      assert(laidOut.chains.count == chains.chains.count, "a canary named a chain the table lacks")
      for _ in 0..<8 { laidOut.storage.append(0) }  // q-gram loads read 8 bytes
      laidOut.storage.withUnsafeBufferPointer { storage in
        add(laidOut, storage.baseAddress!, canary: index, firstTarget: targetCount, layout: layout)
        for target in laidOut.targets {
          let literal = storage.baseAddress! + target.start
          junctionBits.insertGrams(of: literal, length: target.length, worker: worker)
          if !blankJunctionBits.isEmpty
            && (memchr(literal, 0x20, target.length) != nil || memchr(literal, 0x09, target.length) != nil)
          {
            blankJunctionBits.insertGrams(of: literal, length: target.length, worker: worker)
          }
        }
      }
      targetCounts.append(laidOut.targets.count)
      targetCount += laidOut.targets.count
    }
  }

  private mutating func add(
    _ laidOut: MatcherTargets, _ storage: UnsafePointer<UInt8>, canary: Int, firstTarget: Int,
    layout: IndexLayout
  ) {
    var valueAdded = false
    let mask = layout.gramMask
    for (number, target) in laidOut.targets.enumerated() {
      shortest = min(shortest, target.length)
      maxLength = max(maxLength, target.length, target.reach)
      let literal = storage + target.start
      if target.isValue {
        hasValues = true
        valueAdded = true
        values.append(
          UnsafeBufferPointer(start: literal + target.length, count: target.length),
          counts: laidOut.distinctiveCounts[target.countsStart...(target.countsStart + target.length)])
      }
      layout.forEachOffset(length: target.length, isValue: target.isValue, wrapsLines: target.wrapsLines) {
        window, offset in
        let gram = CompiledMatcher.foldedGram(at: literal + offset, mask: mask)
        if target.isValue {
          entries.append(
            GramIndex.Entry(gram: gram, target: UInt32(canary), info: EntryInfo.value(offset: offset)))
          return
        }
        let distance = EntryInfo.checkDistance(
          length: target.length, offset: offset, gramLength: layout.gramLength, wrapsLines: target.wrapsLines)
        let check = CompiledMatcher.foldedGram(at: literal + offset + distance, mask: mask)
        let info = EntryInfo.literal(
          window: window, checkDistance: distance, check: EntryInfo.checkHash(check))
        entries.append(GramIndex.Entry(gram: gram, target: UInt32(firstTarget + number), info: info))
      }
    }
    if !valueAdded { values.append(UnsafeBufferPointer(start: nil, count: 0), counts: [0]) }
  }
}

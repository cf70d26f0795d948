#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CompiledMatcher {
  /// Appends every verified match lying fully inside `text[0..<count]` to `candidates`.
  ///
  /// `text` must have 8 readable bytes past `count`: the probe loads 8 bytes at a time.
  func findCandidates(
    in text: UnsafePointer<UInt8>, count: Int, into candidates: inout [MatchCandidate]
  ) {
    guard count >= minLength, !targets.isEmpty else { return }
    let bitset = UnsafePointer(self.bitset)
    let shift = bitsetShift
    let mask = gramMask
    let step = self.step
    let limit = count - gramLength
    var position = 0
    while position <= limit {
      let word = UInt64(littleEndian: UnsafeRawPointer(text + position).loadUnaligned(as: UInt64.self))
      let gram = (word | ByteFold.filterFold) & mask
      let hash = gram &* ByteFold.hashMultiplier
      let bits = Self.filterBits(hash, shift: shift)
      if bitset[Int(truncatingIfNeeded: hash &>> shift)] & bits == bits {
        lookUp(gram, at: position, in: text, count: count, into: &candidates)
      }
      position &+= step
    }
  }

  /// Verifies every (target, offset) the q-gram at `position` may belong to.
  @inline(never)
  private func lookUp(
    _ gram: UInt64, at position: Int, in text: UnsafePointer<UInt8>, count: Int,
    into candidates: inout [MatchCandidate]
  ) {
    let bucket = Int((gram &* ByteFold.hashMultiplier) >> bucketShift)
    let fingerprint = ByteFold.fingerprint(gram)
    var index = Int(bucketStarts[bucket])
    let end = Int(bucketStarts[bucket + 1])
    while index < end {
      let entry = entries[index]
      index += 1
      guard entry.fingerprint == fingerprint else { continue }
      let target = targets[Int(entry.target)]
      let diagonal = position - Int(entry.offset)
      if target.isValue {
        verifyValue(
          target, diagonal: diagonal, offset: Int(entry.offset), in: text, count: count, into: &candidates)
      } else if diagonal >= 0, diagonal + target.length <= count,
        target.foldsCase
          ? foldedEqual(text + diagonal, bytes + target.start, target.length)
          : memcmp(text + diagonal, bytes + target.start, target.length) == 0
      {
        candidates.append(
          MatchCandidate(
            canary: target.canary, encoding: target.encoding, rank: .exact, start: diagonal,
            end: diagonal + target.length))
      }
    }
  }

  /// Whether `text` folded equals the already folded `literal`.
  private func foldedEqual(_ text: UnsafePointer<UInt8>, _ literal: UnsafePointer<UInt8>, _ length: Int)
    -> Bool
  {
    ByteFold.table.withUnsafeBufferPointer { fold in
      var index = 0
      while index < length, fold[Int(text[index])] == literal[index] { index += 1 }
      return index == length
    }
  }

  /// Extends the case-insensitive run of a value around `diagonal + offset` and classifies it.
  private func verifyValue(
    _ target: Target, diagonal: Int, offset: Int, in text: UnsafePointer<UInt8>, count: Int,
    into candidates: inout [MatchCandidate]
  ) {
    let folded = UnsafePointer(bytes + target.start)
    let length = target.length
    var low = offset
    var high = offset
    ByteFold.table.withUnsafeBufferPointer { fold in
      if minFragment == nil {
        // Only whole values count: check the full diagonal.
        guard diagonal >= 0, diagonal + length <= count else { return }
        var index = 0
        while index < length, fold[Int(text[diagonal + index])] == folded[index] { index += 1 }
        if index == length { (low, high) = (0, length) }
        return
      }
      while low > 0, diagonal + low - 1 >= 0, fold[Int(text[diagonal + low - 1])] == folded[low - 1] {
        low -= 1
      }
      while high < length, diagonal + high < count, fold[Int(text[diagonal + high])] == folded[high] {
        high += 1
      }
    }
    let start = diagonal + low
    let end = diagonal + high
    if low == 0, high == length {
      let exact = memcmp(text + diagonal, bytes + target.start + length, length) == 0
      if exact && reportsRaw {
        candidates.append(
          MatchCandidate(canary: target.canary, encoding: .raw, rank: .exact, start: start, end: end))
        return
      }
      if reportsCaseInsensitive {
        candidates.append(
          MatchCandidate(
            canary: target.canary, encoding: .caseInsensitive, rank: .caseInsensitive, start: start, end: end)
        )
        return
      }
    }
    if let minFragment, high - low >= minFragment,
      identifyingBytes(of: target, from: low, to: high) >= min(minFragment, DistinctiveBytes.required)
    {
      candidates.append(
        MatchCandidate(canary: target.canary, encoding: .fragment, rank: .fragment, start: start, end: end))
    }
  }

  /// How many bytes of `target`'s value in `low..<high` identify its canary.
  private func identifyingBytes(of target: Target, from low: Int, to high: Int) -> Int {
    Int(distinctiveCounts[target.countsStart + high] - distinctiveCounts[target.countsStart + low])
  }
}

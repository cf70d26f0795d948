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
    // q-grams are 8 bytes unless a literal is shorter: the common case runs without the mask.
    if gramLength == 8 {
      probe(text, count: count, masked: false, into: &candidates)
    } else {
      probe(text, count: count, masked: true, into: &candidates)
    }
  }

  /// The probe loop: one q-gram every `step` bytes through both filters, then the index.
  /// Inlined at each call so `masked` is a constant there.
  @inline(__always)
  private func probe(
    _ text: UnsafePointer<UInt8>, count: Int, masked: Bool, into candidates: inout [MatchCandidate]
  ) {
    let bitset = UnsafePointer(self.bitset)
    let shift = bitsetShift
    let mask = gramMask
    let step = self.step
    let limit = count - gramLength
    var position = 0
    while position <= limit {
      let word = UInt64(littleEndian: UnsafeRawPointer(text + position).loadUnaligned(as: UInt64.self))
      let gram = masked ? (word | ByteFold.filterFold) & mask : word | ByteFold.filterFold
      let hash = gram &* ByteFold.hashMultiplier
      let bits = Self.filterBits(hash)
      if bitset[Int(truncatingIfNeeded: hash &>> shift)] & bits == bits,
        passesSecondFilter(gram, shift: shift)
      {
        lookUp(gram, at: position, in: text, count: count, into: &candidates)
      }
      position &+= step
    }
  }

  /// Whether the second filter holds `gram` too.
  @inline(__always)
  private func passesSecondFilter(_ gram: UInt64, shift: UInt64) -> Bool {
    let second = ByteFold.secondHash(gram)
    let bits = Self.filterBits(second)
    return confirmBitset[Int(truncatingIfNeeded: second &>> shift)] & bits == bits
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
      switch target.kind {
      case .value:
        verifyValue(
          target, diagonal: diagonal, offset: Int(entry.offset), in: text, count: count, into: &candidates)
      case .literal, .anchor:
        var span = diagonal..<(diagonal + target.length)
        if diagonal >= 0, diagonal + target.length <= count,
          target.foldsCase
            ? foldedEqual(text + diagonal, bytes + target.start, target.length)
            : memcmp(text + diagonal, bytes + target.start, target.length) == 0
        {
          // Found unbroken.
        } else if target.wrapsLines,
          let wrapped = matchAcrossLineBreaks(
            target, offset: Int(entry.offset), at: position, in: text, count: count)
        {
          span = wrapped
        } else {
          continue
        }
        if case .anchor(let id) = target.kind {
          confirmAnchor(
            anchors[Int(id)], canary: target.canary, start: span.lowerBound, in: text, count: count,
            into: &candidates)
        } else {
          if chains[Int(target.chain)].outermost == .utf16be,
            yieldsToLittleEndian(
              literal: bytes + target.start, length: target.length, start: span.lowerBound, in: text,
              count: count)
          {
            continue
          }
          candidates.append(
            MatchCandidate(
              canary: target.canary, chain: target.chain, rank: .exact, start: span.lowerBound,
              end: span.upperBound))
        }
      }
    }
  }

  /// Matches `target` (not folded) around its byte `offset`, found at `position`, letting a line
  /// break (`\n` or `\r\n`) sit between any two of its bytes; the span it covers, or `nil`.
  private func matchAcrossLineBreaks(
    _ target: Target, offset: Int, at position: Int, in text: UnsafePointer<UInt8>, count: Int
  ) -> Range<Int>? {
    let literal = bytes + target.start
    var index = offset
    var cursor = position
    while index < target.length {
      guard cursor < count else { return nil }
      if text[cursor] == literal[index] {
        index += 1
        cursor += 1
      } else if text[cursor] == 0x0A, index > 0 {
        cursor += 1
      } else if text[cursor] == 0x0D, index > 0, cursor + 1 < count, text[cursor + 1] == 0x0A {
        cursor += 2
      } else {
        return nil
      }
    }
    let end = cursor
    index = offset
    cursor = position
    while index > 0 {
      guard cursor > 0 else { return nil }
      if text[cursor - 1] == literal[index - 1] {
        index -= 1
        cursor -= 1
      } else if text[cursor - 1] == 0x0A, index < target.length {
        cursor -= 1
        if cursor > 0, text[cursor - 1] == 0x0D { cursor -= 1 }
      } else {
        return nil
      }
    }
    return cursor..<end
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
          MatchCandidate(
            canary: target.canary, chain: MatcherTargets.chainID(.raw), rank: .exact, start: start, end: end))
        return
      }
      if reportsCaseInsensitive {
        candidates.append(
          MatchCandidate(
            canary: target.canary, chain: MatcherTargets.chainID(.caseInsensitive), rank: .caseInsensitive,
            start: start, end: end)
        )
        return
      }
    }
    if let minFragment, high - low >= minFragment,
      identifyingBytes(of: target, from: low, to: high) >= min(minFragment, DistinctiveBytes.required)
    {
      candidates.append(
        MatchCandidate(
          canary: target.canary, chain: MatcherTargets.chainID(.fragment), rank: .fragment, start: start,
          end: end))
    }
  }

  /// How many bytes of `target`'s value in `low..<high` identify its canary.
  private func identifyingBytes(of target: Target, from low: Int, to high: Int) -> Int {
    Int(distinctiveCounts[target.countsStart + high] - distinctiveCounts[target.countsStart + low])
  }
}

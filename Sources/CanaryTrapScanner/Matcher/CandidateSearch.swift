#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks computed for one probe at one distance (see ``EntryInfo``).
private struct CheckedGram {
  var distance = 0
  var direct: UInt16? = nil
  /// The distance ``withoutBreaks`` was computed for.
  var readDistance = 0
  var withoutBreaks: UInt16? = nil
}

extension CompiledMatcher {
  /// Appends every verified match lying fully inside `text[0..<count]` to `candidates`;
  /// `cache` keeps the literals of the canaries found lately.
  ///
  /// `text` must have 8 readable bytes past `count`: the probe loads 8 bytes at a time.
  func findCandidates(
    in text: UnsafePointer<UInt8>, count: Int, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    guard count >= minLength, index.entryCount > 0 else { return }
    // q-grams are 8 bytes unless a literal is shorter: the common case runs without the mask.
    if layout.gramLength == 8 {
      probe(text, count: count, masked: false, cache: &cache, into: &candidates)
    } else {
      probe(text, count: count, masked: true, cache: &cache, into: &candidates)
    }
  }

  /// The probe loop: one q-gram every `step` bytes through both filters, then the index.
  /// Inlined at each call so `masked` is a constant there.
  @inline(__always)
  private func probe(
    _ text: UnsafePointer<UInt8>, count: Int, masked: Bool, cache: inout CanaryTargetsCache,
    into candidates: inout [MatchCandidate]
  ) {
    let bitset = UnsafePointer(index.bitset)
    let shift = index.bitsetShift
    let mask = layout.gramMask
    let step = layout.step
    let limit = count - layout.gramLength
    var position = 0
    while position <= limit {
      let word = UInt64(littleEndian: UnsafeRawPointer(text + position).loadUnaligned(as: UInt64.self))
      let gram = masked ? (word | ByteFold.filterFold) & mask : word | ByteFold.filterFold
      let hash = gram &* ByteFold.hashMultiplier
      let bits = GramIndex.filterBits(hash)
      if bitset[Int(truncatingIfNeeded: hash &>> shift)] & bits == bits,
        passesSecondFilter(gram, shift: shift)
      {
        lookUp(gram, at: position, in: text, count: count, cache: &cache, into: &candidates)
      }
      position &+= step
    }
  }

  /// Whether the second filter holds `gram` too.
  @inline(__always)
  private func passesSecondFilter(_ gram: UInt64, shift: UInt64) -> Bool {
    let second = ByteFold.secondHash(gram)
    let bits = GramIndex.filterBits(second)
    return index.confirmBitset[Int(truncatingIfNeeded: second &>> shift)] & bits == bits
  }

  /// Verifies every (literal, offset) the q-gram at `position` may belong to.
  @inline(never)
  private func lookUp(
    _ gram: UInt64, at position: Int, in text: UnsafePointer<UInt8>, count: Int,
    cache: inout CanaryTargetsCache, into candidates: inout [MatchCandidate]
  ) {
    let bucket = index.bucket(of: gram)
    var next = Int(index.bucketStarts[bucket])
    let end = Int(index.bucketStarts[bucket + 1])
    // Entries many canaries share mostly check the same distance: computed once for them.
    var checked = CheckedGram()
    while next < end {
      let entry = index.entries[next]
      next += 1
      guard entry.gram == gram else { continue }
      if EntryInfo.isValue(entry.info) {
        let offset = EntryInfo.offset(entry.info)
        verifyValue(
          canary: Int(entry.target), diagonal: position - offset, offset: offset, in: text, count: count,
          into: &candidates)
        continue
      }
      if let distance = EntryInfo.checkDistance(entry.info) {
        if distance != checked.distance {
          checked = CheckedGram(
            distance: distance, direct: directGram(at: position + distance, in: text, count: count))
        }
        let check = EntryInfo.check(entry.info)
        if checked.direct != check {
          // A literal line breaks may split is checked as it reads without them.
          if checked.distance != checked.readDistance {
            checked.readDistance = checked.distance
            checked.withoutBreaks = gramWithoutBreaks(
              at: position, distance: distance, in: text, count: count)
          }
          guard checked.withoutBreaks == check else { continue }
        }
      }
      let canary = canary(ofTarget: entry.target)
      let rebuilt = cache.targets(of: Int32(canary)) { rebuildTargets(of: canary) }
      let target = rebuilt.targets[Int(entry.target - targetStarts[canary])]
      let offset = layout.offset(
        window: EntryInfo.window(entry.info), length: target.length, wrapsLines: target.wrapsLines)

      verifyLiteral(
        target, in: rebuilt, offset: offset, at: position, text: text, count: count, into: &candidates)
    }
  }

  /// The check of the q-gram at `at`, if it lies inside the text.
  private func directGram(at: Int, in text: UnsafePointer<UInt8>, count: Int) -> UInt16? {
    guard at >= 0, at + layout.gramLength <= count else { return nil }
    return EntryInfo.checkHash(Self.foldedGram(at: text + at, mask: layout.gramMask))
  }

  /// The check of the q-gram `distance` bytes from the one at `position` when `text` is read
  /// without line breaks, as a literal they may split is matched; `nil` past either end.
  private func gramWithoutBreaks(at position: Int, distance: Int, in text: UnsafePointer<UInt8>, count: Int)
    -> UInt16?
  {
    func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    var cursor = position
    var remaining = abs(distance)
    while remaining > 0 {
      if distance > 0 {
        guard cursor < count else { return nil }
        if !isBreak(text[cursor]) { remaining -= 1 }
        cursor += 1
      } else {
        cursor -= 1
        guard cursor >= 0 else { return nil }
        if !isBreak(text[cursor]) { remaining -= 1 }
      }
    }
    var gram: UInt64 = 0
    var collected = 0
    while collected < layout.gramLength {
      guard cursor < count else { return nil }
      let byte = text[cursor]
      cursor += 1
      if isBreak(byte) { continue }
      gram |= UInt64(byte) << UInt64(8 * collected)
      collected += 1
    }
    return EntryInfo.checkHash((gram | ByteFold.filterFold) & layout.gramMask)
  }

  /// Verifies a literal or anchor `target` whose byte `offset` lines up with `position`.
  private func verifyLiteral(
    _ target: Target, in rebuilt: CanaryTargets, offset: Int, at position: Int, text: UnsafePointer<UInt8>,
    count: Int, into candidates: inout [MatchCandidate]
  ) {
    let literal = rebuilt.bytes + target.start
    let diagonal = position - offset
    var span = diagonal..<(diagonal + target.length)
    if diagonal >= 0, diagonal + target.length <= count,
      target.foldsCase
        ? foldedEqual(text + diagonal, literal, target.length)
        : memcmp(text + diagonal, literal, target.length) == 0
    {
      // Found unbroken.
    } else if target.wrapsLines,
      let wrapped = matchAcrossLineBreaks(
        literal, length: target.length, offset: offset, at: position, in: text, count: count)
    {
      span = wrapped
    } else {
      return
    }
    if case .anchor(let id) = target.kind {
      confirmAnchor(
        rebuilt.anchors[Int(id)], canary: target.canary, start: span.lowerBound, in: text, count: count,
        into: &candidates)
      return
    }
    if chains[Int(target.chain)].outermost == .utf16be,
      yieldsToLittleEndian(
        literal: literal, length: target.length, start: span.lowerBound, in: text, count: count)
    {
      return
    }
    candidates.append(
      MatchCandidate(
        canary: target.canary, chain: target.chain, rank: .exact, start: span.lowerBound, end: span.upperBound
      ))
  }

  /// Matches `literal` (not folded) around its byte `offset`, found at `position`, letting a line
  /// break (`\n` or `\r\n`) sit between any two of its bytes; the span it covers, or `nil`.
  private func matchAcrossLineBreaks(
    _ literal: UnsafePointer<UInt8>, length: Int, offset: Int, at position: Int,
    in text: UnsafePointer<UInt8>,
    count: Int
  ) -> Range<Int>? {
    var index = offset
    var cursor = position
    while index < length {
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
      } else if text[cursor - 1] == 0x0A, index < length {
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

  /// Extends the case-insensitive run of canary `canary`'s value around `diagonal + offset` and
  /// classifies it.
  private func verifyValue(
    canary: Int, diagonal: Int, offset: Int, in text: UnsafePointer<UInt8>, count: Int,
    into candidates: inout [MatchCandidate]
  ) {
    let folded = values.folded(canary)
    let length = values.length(canary)
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
      let exact = memcmp(text + diagonal, folded + length, length) == 0
      if exact && reportsRaw {
        candidates.append(
          MatchCandidate(
            canary: Int32(canary), chain: MatcherTargets.chainID(.raw), rank: .exact, start: start, end: end))
        return
      }
      if reportsCaseInsensitive {
        candidates.append(
          MatchCandidate(
            canary: Int32(canary), chain: MatcherTargets.chainID(.caseInsensitive), rank: .caseInsensitive,
            start: start, end: end)
        )
        return
      }
    }
    if let minFragment, high - low >= minFragment,
      values.identifyingBytes(canary, from: low, to: high) >= min(minFragment, DistinctiveBytes.required)
    {
      candidates.append(
        MatchCandidate(
          canary: Int32(canary), chain: MatcherTargets.chainID(.fragment), rank: .fragment, start: start,
          end: end))
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes one raw deflate stream (RFC 1951) from a ``ByteReader``, a window at a time.
///
/// Output goes to a sliding buffer of 32 KiB of history plus 256 KiB of new bytes, so memory is
/// constant whatever the stream expands to. Symbols are decoded through ``HuffmanTable`` lookups
/// from a 64-bit bit buffer refilled eight bytes at a time. When the stream's final block ends,
/// the bytes it did not use are given back to the reader (a gzip trailer, the next zip header).
package final class Inflater {
  private static let history = 32_768
  private static let capacity = history + (1 << 18)
  private static let outputLimit = capacity - 258

  private let reader: ByteReader
  private var bits: UInt64 = 0
  private var bitCount = 0
  private let window: UnsafeMutablePointer<UInt8>
  private var writePosition = 0
  private var delivered = 0
  private var finalBlock = false
  private var storedRemaining = 0
  private enum State { case blockHeader, stored, huffman, done }
  private var state = State.blockHeader
  /// This inflater's tables for dynamic blocks.
  private let dynamicLiteralLengths: UnsafeMutablePointer<UInt32>
  private let dynamicDistances: UnsafeMutablePointer<UInt32>
  /// The tables of the current block: the dynamic ones, or the fixed ones every inflater shares.
  private var literalLengths: UnsafePointer<UInt32>
  private var distances: UnsafePointer<UInt32>
  /// Bytes produced so far.
  private(set) var totalOut = 0

  package init(reader: ByteReader) {
    self.reader = reader
    window = .allocate(capacity: Self.capacity + 16)
    window.initialize(repeating: 0, count: Self.capacity + 16)
    dynamicLiteralLengths = .allocate(capacity: HuffmanTable.literalLengthSize)
    dynamicLiteralLengths.initialize(repeating: 0, count: HuffmanTable.literalLengthSize)
    dynamicDistances = .allocate(capacity: HuffmanTable.distanceSize)
    dynamicDistances.initialize(repeating: 0, count: HuffmanTable.distanceSize)
    literalLengths = UnsafePointer(dynamicLiteralLengths)
    distances = UnsafePointer(dynamicDistances)
  }

  deinit {
    window.deallocate()
    dynamicLiteralLengths.deallocate()
    dynamicDistances.deallocate()
  }

  /// Starts over for a new stream, keeping the buffers.
  package func reset() {
    bits = 0
    bitCount = 0
    writePosition = 0
    delivered = 0
    finalBlock = false
    storedRemaining = 0
    state = .blockHeader
    totalOut = 0
    pendingError = nil
  }

  /// Whether the final block has ended.
  package var isDone: Bool { state == .done }

  /// An error met after some output was decoded: that output is handed out first.
  private var pendingError: (any Error)?

  /// The next decoded bytes, valid until the next call; empty once the stream has ended. Bytes
  /// decoded before an error are returned first and the error is thrown by the next call.
  package func next() throws -> UnsafeBufferPointer<UInt8> {
    if let pendingError { throw pendingError }
    while state != .done {
      if writePosition > Self.outputLimit {
        memmove(window, window + writePosition - Self.history, Self.history)
        writePosition = Self.history
        delivered = Self.history
      }
      do {
        try decode()
      } catch {
        guard writePosition > delivered else { throw error }
        pendingError = error
      }
      if writePosition > delivered {
        let output = UnsafeBufferPointer(start: window + delivered, count: writePosition - delivered)
        totalOut += writePosition - delivered
        delivered = writePosition
        return output
      }
    }
    return UnsafeBufferPointer(start: window, count: 0)
  }

  /// Decodes until the window is full or the stream ends.
  private func decode() throws {
    while writePosition <= Self.outputLimit {
      switch state {
      case .done: return
      case .blockHeader: try readBlockHeader()
      case .stored: try copyStored()
      case .huffman: try decodeHuffman()
      }
    }
  }

  // MARK: Bits

  /// Loads bytes into the bit buffer: eight at once when the reader holds them, else one by one,
  /// reading more from the source when it runs low.
  private func refill() throws {
    if reader.end - reader.position < 8, !reader.sourceEnded { try reader.fill() }
    if reader.end - reader.position >= 8 {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(reader.buffer + reader.position).loadUnaligned(as: UInt64.self))
      bits |= word << UInt64(bitCount)
      reader.position += (63 - bitCount) >> 3
      bitCount |= 56
    } else {
      while bitCount <= 56, reader.position < reader.end {
        bits |= UInt64(reader.buffer[reader.position]) << UInt64(bitCount)
        reader.position += 1
        bitCount += 8
      }
    }
  }

  /// Takes `count` bits (at most 32); throws when the input ends first.
  private func take(_ count: Int) throws -> UInt32 {
    if bitCount < count { try refill() }
    guard bitCount >= count else { throw ContainerError.truncated("the deflate stream ends inside a block") }
    let value = UInt32(truncatingIfNeeded: bits & ((1 << UInt64(count)) - 1))
    bits >>= UInt64(count)
    bitCount -= count
    return value
  }

  /// Drops the bits of a partly read byte and gives whole unread bytes back to the reader.
  private func alignAndGiveBack() {
    reader.position -= bitCount >> 3
    bits = 0
    bitCount = 0
  }

  // MARK: Blocks

  private func readBlockHeader() throws {
    if finalBlock {
      alignAndGiveBack()
      state = .done
      return
    }
    let header = try take(3)
    finalBlock = header & 1 == 1
    switch header >> 1 {
    case 0:
      alignAndGiveBack()
      guard let lengths = try reader.take(4) else {
        throw ContainerError.truncated("the deflate stream ends inside a stored block's header")
      }
      let length = Int(lengths[0]) | Int(lengths[1]) << 8
      let complement = Int(lengths[2]) | Int(lengths[3]) << 8
      guard length == complement ^ 0xFFFF else {
        throw ContainerError.corrupt("a stored block's length does not match its complement")
      }
      storedRemaining = length
      state = .stored
    case 1:
      useFixedTables()
      state = .huffman
    case 2:
      try readDynamicTables()
      state = .huffman
    default:
      throw ContainerError.corrupt("a deflate block has the reserved type 3")
    }
  }

  private func copyStored() throws {
    while storedRemaining > 0, writePosition <= Self.outputLimit {
      if reader.position == reader.end, !(try reader.fill()) {
        throw ContainerError.truncated("the deflate stream ends inside a stored block")
      }
      let count = min(storedRemaining, reader.end - reader.position, Self.capacity - writePosition)
      (window + writePosition).update(from: reader.buffer + reader.position, count: count)
      reader.position += count
      writePosition += count
      storedRemaining -= count
    }
    if storedRemaining == 0 { state = .blockHeader }
  }

  private static let fixedLengths: [UInt8] = {
    var lengths = [UInt8](repeating: 8, count: 288)
    for index in 144..<256 { lengths[index] = 9 }
    for index in 256..<280 { lengths[index] = 7 }
    return lengths
  }()

  /// The fixed codes' tables, built once for every inflater (raw deflate is tried on many short
  /// payloads, so building them per block showed in profiles).
  private nonisolated(unsafe) static let fixedTables: (UnsafePointer<UInt32>, UnsafePointer<UInt32>) = {
    let literalLengths = UnsafeMutablePointer<UInt32>.allocate(capacity: HuffmanTable.literalLengthSize)
    literalLengths.initialize(repeating: 0, count: HuffmanTable.literalLengthSize)
    let distances = UnsafeMutablePointer<UInt32>.allocate(capacity: HuffmanTable.distanceSize)
    distances.initialize(repeating: 0, count: HuffmanTable.distanceSize)
    // The fixed code lengths form complete codes: building them cannot fail.
    try! fixedLengths.withUnsafeBufferPointer {
      try HuffmanTable.build(
        lengths: $0, primaryBits: HuffmanTable.literalLengthBits, into: literalLengths,
        capacity: HuffmanTable.literalLengthSize, entryFor: HuffmanTable.literalLengthEntry)
    }
    let distanceLengths = [UInt8](repeating: 5, count: 30)
    try! distanceLengths.withUnsafeBufferPointer {
      try HuffmanTable.build(
        lengths: $0, primaryBits: HuffmanTable.distanceBits, into: distances,
        capacity: HuffmanTable.distanceSize, entryFor: HuffmanTable.distanceEntry)
    }
    return (UnsafePointer(literalLengths), UnsafePointer(distances))
  }()

  private func useFixedTables() {
    (literalLengths, distances) = Self.fixedTables
  }

  private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  private func readDynamicTables() throws {
    let literalCount = Int(try take(5)) + 257
    let distanceCount = Int(try take(5)) + 1
    let codeLengthCount = Int(try take(4)) + 4
    guard literalCount <= 286, distanceCount <= 30 else {
      throw ContainerError.corrupt("a dynamic block declares too many codes")
    }
    var codeLengthLengths = [UInt8](repeating: 0, count: 19)
    for index in 0..<codeLengthCount { codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(try take(3)) }
    let codeLengthTable = UnsafeMutablePointer<UInt32>.allocate(capacity: 128)
    defer { codeLengthTable.deallocate() }
    try codeLengthLengths.withUnsafeBufferPointer {
      try HuffmanTable.build(
        lengths: $0, primaryBits: 7, into: codeLengthTable, capacity: 128,
        entryFor: HuffmanTable.codeLengthEntry)
    }
    var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
    var index = 0
    while index < lengths.count {
      if bitCount < 7 { try refill() }
      let entry = codeLengthTable[Int(bits & 0x7F)]
      let size = Int(entry & 0xFF)
      guard (entry >> 12) & 0xF == HuffmanTable.literal else {
        throw ContainerError.corrupt("a code-length code is invalid")
      }
      guard size <= bitCount else { throw ContainerError.truncated("the deflate stream ends inside a block") }
      bits >>= UInt64(size)
      bitCount -= size
      let symbol = Int(entry >> 16)
      var repeatCount = 1
      var value: UInt8 = 0
      switch symbol {
      case 0..<16: value = UInt8(symbol)
      case 16:
        guard index > 0 else { throw ContainerError.corrupt("a repeat code has nothing to repeat") }
        value = lengths[index - 1]
        repeatCount = 3 + Int(try take(2))
      case 17: repeatCount = 3 + Int(try take(3))
      default: repeatCount = 11 + Int(try take(7))
      }
      guard index + repeatCount <= lengths.count else {
        throw ContainerError.corrupt("code lengths run past the declared count")
      }
      for _ in 0..<repeatCount {
        lengths[index] = value
        index += 1
      }
    }
    guard lengths[256] != 0 else { throw ContainerError.corrupt("a dynamic block has no end-of-block code") }
    try lengths.withUnsafeBufferPointer { all in
      try HuffmanTable.build(
        lengths: UnsafeBufferPointer(rebasing: all[0..<literalCount]),
        primaryBits: HuffmanTable.literalLengthBits,
        into: dynamicLiteralLengths, capacity: HuffmanTable.literalLengthSize,
        entryFor: HuffmanTable.literalLengthEntry)
      try HuffmanTable.build(
        lengths: UnsafeBufferPointer(rebasing: all[literalCount...]), primaryBits: HuffmanTable.distanceBits,
        into: dynamicDistances, capacity: HuffmanTable.distanceSize, entryFor: HuffmanTable.distanceEntry)
    }
    literalLengths = UnsafePointer(dynamicLiteralLengths)
    distances = UnsafePointer(dynamicDistances)
  }

  // MARK: Symbols

  /// The hot loop: decodes literal/length and distance symbols into the window until the block
  /// ends or the window is full. State lives in locals and is written back on every exit.
  private func decodeHuffman() throws {
    var bits = self.bits
    var bitCount = self.bitCount
    var out = writePosition
    let window = self.window
    let literalLengths = self.literalLengths
    let distances = self.distances
    let input = reader.buffer
    var position = reader.position
    var end = reader.end
    defer {
      self.bits = bits
      self.bitCount = bitCount
      writePosition = out
      reader.position = position
    }
    let literalMask = UInt64(1 << HuffmanTable.literalLengthBits - 1)
    let distanceMask = UInt64(1 << HuffmanTable.distanceBits - 1)
    while out <= Self.outputLimit {
      if end - position >= 8 {
        bits |=
          UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self))
          << UInt64(bitCount)
        position += (63 - bitCount) >> 3
        bitCount |= 56
      } else {
        self.bits = bits
        self.bitCount = bitCount
        reader.position = position
        try refill()
        bits = self.bits
        bitCount = self.bitCount
        position = reader.position
        end = reader.end
      }
      var entry = literalLengths[Int(bits & literalMask)]
      if (entry >> 12) & 0xF == HuffmanTable.subtable {
        let primary = Int(entry & 0xFF)
        guard primary <= bitCount else {
          throw ContainerError.truncated("the deflate stream ends inside a block")
        }
        bits >>= UInt64(primary)
        bitCount -= primary
        entry = literalLengths[Int(entry >> 16) + Int(bits & ((1 << ((entry >> 8) & 0xF)) - 1))]
      }
      var size = Int(entry & 0xFF)
      guard size <= bitCount else { throw ContainerError.truncated("the deflate stream ends inside a block") }
      bits >>= UInt64(size)
      bitCount -= size
      let kind = (entry >> 12) & 0xF
      if kind == HuffmanTable.literal {
        window[out] = UInt8(truncatingIfNeeded: entry >> 16)
        out += 1
        continue
      }
      if kind == HuffmanTable.endOfBlock {
        state = .blockHeader
        return
      }
      guard kind == HuffmanTable.base else { throw ContainerError.corrupt("an invalid literal/length code") }
      var extra = Int((entry >> 8) & 0xF)
      guard extra <= bitCount else {
        throw ContainerError.truncated("the deflate stream ends inside a block")
      }
      let length = Int(entry >> 16) + Int(bits & ((1 << UInt64(extra)) - 1))
      bits >>= UInt64(extra)
      bitCount -= extra
      if bitCount < 28 {
        self.bits = bits
        self.bitCount = bitCount
        reader.position = position
        try refill()
        bits = self.bits
        bitCount = self.bitCount
        position = reader.position
        end = reader.end
      }
      entry = distances[Int(bits & distanceMask)]
      if (entry >> 12) & 0xF == HuffmanTable.subtable {
        let primary = Int(entry & 0xFF)
        guard primary <= bitCount else {
          throw ContainerError.truncated("the deflate stream ends inside a block")
        }
        bits >>= UInt64(primary)
        bitCount -= primary
        entry = distances[Int(entry >> 16) + Int(bits & ((1 << ((entry >> 8) & 0xF)) - 1))]
      }
      size = Int(entry & 0xFF)
      guard size <= bitCount else { throw ContainerError.truncated("the deflate stream ends inside a block") }
      guard (entry >> 12) & 0xF == HuffmanTable.base else {
        throw ContainerError.corrupt("an invalid distance code")
      }
      bits >>= UInt64(size)
      bitCount -= size
      extra = Int((entry >> 8) & 0xF)
      guard extra <= bitCount else {
        throw ContainerError.truncated("the deflate stream ends inside a block")
      }
      let distance = Int(entry >> 16) + Int(bits & ((1 << UInt64(extra)) - 1))
      bits >>= UInt64(extra)
      bitCount -= extra
      guard distance <= out else {
        throw ContainerError.corrupt("a distance points before the start of the stream")
      }
      var source = window + (out - distance)
      var target = window + out
      if distance >= 8 {
        var left = length
        while left > 0 {
          UnsafeMutableRawPointer(target).storeBytes(
            of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
          source += 8
          target += 8
          left -= 8
        }
      } else if distance == 1 {
        memset(target, Int32(source.pointee), length)
      } else {
        for _ in 0..<length {
          target.pointee = source.pointee
          source += 1
          target += 1
        }
      }
      out += length
    }
  }
}

/// The decompressed bytes of Apple's LZ4 format (what the Compression framework's
/// `COMPRESSION_LZ4` writes): blocks `bv41` (decoded size, encoded size, an LZ4 block) and `bv4-`
/// (size, bytes as they are), ending with `bv4$`.
///
/// A block may copy from the 64 KiB decoded before it, so that much history is kept across
/// blocks. A block's claimed size is counted against the ``DecodingBudget`` before it is decoded,
/// and it must be decoded to exactly that size.
package final class AppleLZ4Source: DecodedSource {
  /// The largest block this reader decodes (Apple's encoder writes far smaller ones).
  package static let maxBlockSize = 1 << 24
  private static let history = 1 << 16
  private static let compressed: [UInt8] = Array("bv41".utf8)
  private static let uncompressed: [UInt8] = Array("bv4-".utf8)
  private static let end: [UInt8] = Array("bv4$".utf8)

  private let reader: ByteReader
  private let budget: any DecodingBudget
  /// The last ``history`` bytes decoded, then the current block.
  private var window: [UInt8] = []
  private var blocks = 0
  private var ended = false

  package init(_ reader: ByteReader, budget: any DecodingBudget) {
    self.reader = reader
    self.budget = budget
  }

  package override func nextChunk() throws -> UnsafeBufferPointer<UInt8> {
    while !ended {
      guard let magic = try reader.take(4).map(Array.init) else {
        throw ContainerError.truncated("the Apple LZ4 stream ends before its end marker (bv4$)")
      }
      if magic == Self.end {
        // Streams may follow one another.
        if try reader.atEnd() {
          ended = true
          break
        }
        continue
      }
      guard magic == Self.compressed || magic == Self.uncompressed else {
        throw ContainerError.corrupt("Apple LZ4 block \(blocks + 1) does not start with bv41, bv4- or bv4$")
      }
      blocks += 1
      let isCompressed = magic == Self.compressed
      guard let sizes = try reader.take(isCompressed ? 8 : 4) else {
        throw ContainerError.truncated("Apple LZ4 block \(blocks)'s header is cut short")
      }
      let decoded = LittleEndian.le32(sizes, 0)
      let encoded = isCompressed ? LittleEndian.le32(sizes, 4) : decoded
      guard decoded <= Self.maxBlockSize, encoded <= Self.maxBlockSize else {
        throw ContainerError.unsupported(
          "Apple LZ4 block \(blocks) of \(max(decoded, encoded)) bytes (more than \(Self.maxBlockSize))")
      }
      try budget.expand(decoded)
      let source = try read(encoded)
      let start = window.count
      if isCompressed {
        try LZ4Block.decode(source, into: &window, size: decoded, block: blocks)
      } else {
        window += source
      }
      let count = window.count - start
      guard count > 0 else { continue }
      if count > chunkCapacity {
        chunk.deallocate()
        chunk = .allocate(capacity: count)
        chunkCapacity = count
      }
      window.withUnsafeBufferPointer { chunk.update(from: $0.baseAddress! + start, count: count) }
      if window.count > Self.history { window.removeFirst(window.count - Self.history) }
      return UnsafeBufferPointer(start: chunk, count: count)
    }
    return UnsafeBufferPointer(start: nil, count: 0)
  }

  /// The last block handed out, kept until the next call.
  private var chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  private var chunkCapacity = 1

  deinit { chunk.deallocate() }

  private func read(_ count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let read = try bytes.withUnsafeMutableBufferPointer {
        try reader.read(into: $0.baseAddress! + done, count: count - done)
      }
      if read == 0 { throw ContainerError.truncated("Apple LZ4 block \(blocks) is cut short") }
      done += read
    }
    return bytes
  }
}

/// The LZ4 block format: sequences of literals and matches (a 16-bit offset back into what was
/// decoded, a length of at least 4).
package enum LZ4Block {
  /// Decodes `source` onto the end of `output`, which must grow by exactly `size` bytes; a match
  /// may reach back into what `output` already held.
  package static func decode(_ source: [UInt8], into output: inout [UInt8], size: Int, block: Int) throws {
    let start = output.count
    let limit = start + size
    output.reserveCapacity(limit)
    var index = 0
    func corrupt(_ detail: String) -> ContainerError {
      .corrupt("LZ4 block \(block) \(detail)")
    }
    func length(_ initial: Int) throws -> Int {
      var total = initial
      guard initial == 15 else { return total }
      while true {
        guard index < source.count else { throw corrupt("ends inside a length") }
        let byte = Int(source[index])
        index += 1
        total += byte
        guard total <= limit else { throw corrupt("has a length past its size") }
        if byte != 255 { return total }
      }
    }
    while index < source.count {
      let token = Int(source[index])
      index += 1
      let literals = try length(token >> 4)
      guard index + literals <= source.count else { throw corrupt("ends inside its literals") }
      guard output.count + literals <= limit else { throw corrupt("decodes past its size") }
      output += source[index..<(index + literals)]
      index += literals
      if index == source.count { break }
      guard index + 2 <= source.count else { throw corrupt("ends inside a match offset") }
      let offset = Int(source[index]) | Int(source[index + 1]) << 8
      index += 2
      guard offset > 0, offset <= output.count else { throw corrupt("copies from before its start") }
      let match = try length(token & 0x0F) + 4
      guard output.count + match <= limit else { throw corrupt("decodes past its size") }
      var from = output.count - offset
      for _ in 0..<match {
        output.append(output[from])
        from += 1
      }
    }
    guard output.count == limit else {
      throw corrupt("decodes to \(output.count - start) bytes, its header says \(size)")
    }
  }
}

/// The decompressed bytes of a bzip2 file: every stream in turn (`pbzip2` writes several), each
/// block checked against its CRC and each stream against its combined CRC.
///
/// A block (at most 900,000 bytes before its run-length step) is Huffman- and move-to-front-decoded
/// whole, then its inverse Burrows–Wheeler transform is walked a chunk at a time, so memory is
/// bounded by the block size whatever the file expands to. Randomized blocks (written only by
/// bzip2 before 0.9.5) are reported unsupported.
package final class Bzip2Source: DecodedSource {
  private static let outputCapacity = 1 << 18
  private static let maxGroups = 6
  private static let maxAlphabet = 258
  private static let groupSize = 50
  private static let maxSelectors = 18_002
  private static let maxCodeLength = 20

  private let reader: ByteReader
  private let budget: any DecodingBudget
  private var bits: UInt64 = 0
  private var bitCount = 0
  private var streams = 0
  private var inStream = false
  private var blockSizeLimit = 0
  private var blocks = 0
  private var combinedCRC: UInt32 = 0

  /// The block: a byte in the low 8 bits of each entry and the inverse BWT link above them.
  private let tt: UnsafeMutablePointer<UInt32>
  private var blockLength = 0
  private var walked = 0
  private var position = 0
  private var inBlock = false
  /// Whether a block was decoded whole and its CRC is still to be checked.
  private var blockDone = false
  private var expectedBlockCRC: UInt32 = 0
  private var blockCRC = Bzip2CRC()
  private var lastByte: Int = -1
  private var runLength = 0
  private let output: UnsafeMutablePointer<UInt8>

  package init(_ reader: ByteReader, budget: any DecodingBudget) {
    self.reader = reader
    self.budget = budget
    tt = .allocate(capacity: 900_000)
    output = .allocate(capacity: Self.outputCapacity)
  }

  deinit {
    tt.deallocate()
    output.deallocate()
  }

  package override func nextChunk() throws -> UnsafeBufferPointer<UInt8> {
    var produced = 0
    while produced == 0 {
      if !inBlock {
        // The block handed out last is checked now, so its bytes were scanned before a failure.
        if blockDone {
          blockDone = false
          guard blockCRC.value == expectedBlockCRC else {
            throw ContainerError.corrupt("bzip2 block \(blocks) fails its CRC check")
          }
          combinedCRC = (combinedCRC << 1 | combinedCRC >> 31) ^ expectedBlockCRC
        }
        guard try startBlock() else { return UnsafeBufferPointer(start: nil, count: 0) }
        continue
      }
      produced = walk()
      if walked == blockLength {
        inBlock = false
        blockDone = true
      }
    }
    try budget.expand(produced)
    return UnsafeBufferPointer(start: output, count: produced)
  }

  /// Undoes the BWT and the initial run-length step into ``output``; returns the bytes written.
  private func walk() -> Int {
    var count = 0
    let limit = Self.outputCapacity - 256
    var position = self.position
    var walked = self.walked
    var lastByte = self.lastByte
    var runLength = self.runLength
    while walked < blockLength, count < limit {
      let entry = tt[position]
      position = Int(entry >> 8)
      walked += 1
      let byte = Int(entry & 0xFF)
      if runLength == 4 {
        if byte > 0 { (output + count).initialize(repeating: UInt8(lastByte), count: byte) }
        count += byte
        runLength = 0
        continue
      }
      output[count] = UInt8(byte)
      count += 1
      if byte == lastByte {
        runLength += 1
      } else {
        lastByte = byte
        runLength = 1
      }
    }
    self.position = position
    self.walked = walked
    self.lastByte = lastByte
    self.runLength = runLength
    blockCRC.update(output, count: count)
    return count
  }

  /// Reads the next block (or the end of a stream, and the next stream's header); false at the
  /// clean end of the input.
  private func startBlock() throws -> Bool {
    if !inStream {
      guard try startStream() else { return false }
    }
    let high = try bitsValue(24)
    let low = try bitsValue(24)
    let magic = UInt64(high) << 24 | UInt64(low)
    if magic == 0x1772_4538_5090 {
      let stored = try bitsValue(32)
      guard stored == combinedCRC else {
        throw ContainerError.corrupt("bzip2 stream \(streams + 1) fails its combined CRC check")
      }
      bitCount -= bitCount % 8
      streams += 1
      inStream = false
      return true
    }
    guard magic == 0x3141_5926_5359 else {
      throw ContainerError.corrupt("bzip2 block \(blocks + 1) does not start with the block magic")
    }
    blocks += 1
    expectedBlockCRC = try bitsValue(32)
    guard try bitsValue(1) == 0 else {
      throw ContainerError.unsupported("a randomized bzip2 block (written by bzip2 before 0.9.5)")
    }
    let origin = Int(try bitsValue(24))
    try decodeBlock()
    guard origin < blockLength else {
      throw ContainerError.corrupt("bzip2 block \(blocks)'s origin pointer is past its end")
    }
    // Inverse BWT: link each entry to the next, by counting sort on its byte.
    var starts = [Int](repeating: 0, count: 257)
    for index in 0..<blockLength { starts[Int(tt[index] & 0xFF) + 1] += 1 }
    for index in 1...256 { starts[index] += starts[index - 1] }
    for index in 0..<blockLength {
      let byte = Int(tt[index] & 0xFF)
      tt[starts[byte]] |= UInt32(index) << 8
      starts[byte] += 1
    }
    position = Int(tt[origin] >> 8)
    walked = 0
    lastByte = -1
    runLength = 0
    blockCRC = Bzip2CRC()
    inBlock = true
    return true
  }

  /// Reads a stream header (`BZh1` to `BZh9`); false at the clean end of the input.
  private func startStream() throws -> Bool {
    if streams > 0, bitCount == 0, try reader.atEnd() { return false }
    guard bitCount == 0, let header = try reader.take(4) else {
      throw ContainerError.corrupt("bytes after bzip2 stream \(streams) are not another bzip2 stream")
    }
    guard header[0] == 0x42, header[1] == 0x5A, header[2] == 0x68, (0x31...0x39).contains(header[3]) else {
      throw ContainerError.corrupt(
        streams == 0
          ? "not a bzip2 header" : "bytes after bzip2 stream \(streams) are not another bzip2 stream")
    }
    blockSizeLimit = Int(header[3] - 0x30) * 100_000
    combinedCRC = 0
    inStream = true
    return true
  }

  /// Decodes one block's Huffman-coded, move-to-front-coded symbols into ``tt`` (bytes only).
  private func decodeBlock() throws {
    // The bytes in use, as a 16 × 16 bitmap.
    var used: [UInt8] = []
    let ranges = try bitsValue(16)
    for range in 0..<16 where ranges & (0x8000 >> UInt32(range)) != 0 {
      let members = try bitsValue(16)
      for member in 0..<16 where members & (0x8000 >> UInt32(member)) != 0 {
        used.append(UInt8(range * 16 + member))
      }
    }
    guard !used.isEmpty else { throw ContainerError.corrupt("bzip2 block \(blocks) uses no byte") }
    let alphabetSize = used.count + 2
    let groups = Int(try bitsValue(3))
    guard (2...Self.maxGroups).contains(groups) else {
      throw ContainerError.corrupt("bzip2 block \(blocks) has \(groups) Huffman tables")
    }
    let selectorCount = Int(try bitsValue(15))
    guard selectorCount > 0 else { throw ContainerError.corrupt("bzip2 block \(blocks) has no selector") }
    var selectors: [UInt8] = []
    selectors.reserveCapacity(min(selectorCount, Self.maxSelectors))
    var order: [UInt8] = Array(0..<UInt8(groups))
    for _ in 0..<selectorCount {
      var rank = 0
      while try bitsValue(1) == 1 {
        rank += 1
        guard rank < groups else {
          throw ContainerError.corrupt("bzip2 block \(blocks) has a selector past its tables")
        }
      }
      let group = order.remove(at: rank)
      order.insert(group, at: 0)
      if selectors.count < Self.maxSelectors { selectors.append(group) }
    }
    var tables: [Bzip2Huffman] = []
    for _ in 0..<groups {
      var lengths = [UInt8](repeating: 0, count: alphabetSize)
      var length = Int(try bitsValue(5))
      for symbol in 0..<alphabetSize {
        while true {
          guard (1...Self.maxCodeLength).contains(length) else {
            throw ContainerError.corrupt("bzip2 block \(blocks) has a code length of \(length)")
          }
          if try bitsValue(1) == 0 { break }
          length += try bitsValue(1) == 0 ? 1 : -1
        }
        lengths[symbol] = UInt8(length)
      }
      tables.append(Bzip2Huffman(lengths: lengths))
    }

    // Symbols: runs of the front byte (RUNA/RUNB, bijective base 2), move-to-front indexes, end.
    var front = used
    let endOfBlock = alphabetSize - 1
    var count = 0
    var run = 0
    var runWeight = 1
    var selectorIndex = 0
    var left = 0
    var table = tables[0]
    while true {
      if left == 0 {
        guard selectorIndex < selectors.count else {
          throw ContainerError.corrupt("bzip2 block \(blocks) runs past its selectors")
        }
        table = tables[Int(selectors[selectorIndex])]
        selectorIndex += 1
        left = Self.groupSize
      }
      left -= 1
      let symbol = try decodeSymbol(table)
      if symbol <= 1 {
        guard runWeight <= 1 << 21 else {
          throw ContainerError.corrupt("bzip2 block \(blocks) has an endless run")
        }
        run += (symbol + 1) * runWeight
        runWeight <<= 1
        continue
      }
      if run > 0 {
        guard count + run <= blockSizeLimit else { throw overfull }
        (tt + count).initialize(repeating: UInt32(front[0]), count: run)
        count += run
        run = 0
        runWeight = 1
      }
      if symbol == endOfBlock { break }
      guard count < blockSizeLimit else { throw overfull }
      let index = symbol - 1
      guard index < front.count else {
        throw ContainerError.corrupt("bzip2 block \(blocks) moves a byte it does not use")
      }
      let byte = front.remove(at: index)
      front.insert(byte, at: 0)
      tt[count] = UInt32(byte)
      count += 1
    }
    blockLength = count
  }

  private var overfull: ContainerError {
    .corrupt("bzip2 block \(blocks) holds more than its \(blockSizeLimit) bytes")
  }

  private func decodeSymbol(_ table: Bzip2Huffman) throws -> Int {
    try need(Self.maxCodeLength)
    let peek = Int(truncatingIfNeeded: bits >> UInt64(bitCount - Self.maxCodeLength)) & 0xF_FFFF
    var length = table.minLength
    var code = peek >> (Self.maxCodeLength - length)
    while length <= table.maxLength, code > table.limit[length] {
      length += 1
      code = peek >> (Self.maxCodeLength - length)
    }
    let index = code - table.base[min(length, Self.maxCodeLength)]
    guard length <= table.maxLength, index >= 0, index < table.permutation.count else {
      throw ContainerError.corrupt("bzip2 block \(blocks) holds an invalid Huffman code")
    }
    bitCount -= length
    return table.permutation[index]
  }

  /// Makes sure the bit buffer holds `count` bits (at most 32).
  private func need(_ count: Int) throws {
    while bitCount < count {
      if reader.position == reader.end, !(try reader.fill()) {
        throw ContainerError.truncated("the bzip2 stream ends inside block \(max(blocks, 1))")
      }
      bits = bits << 8 | UInt64(reader.buffer[reader.position])
      reader.position += 1
      bitCount += 8
    }
  }

  private func bitsValue(_ count: Int) throws -> UInt32 {
    try need(count)
    bitCount -= count
    return UInt32(truncatingIfNeeded: bits >> UInt64(bitCount)) & UInt32(truncatingIfNeeded: (1 << count) - 1)
  }
}

/// One canonical Huffman table of a bzip2 block, decoded by comparing a code against the last
/// code of each length (`limit`).
package struct Bzip2Huffman {
  package let minLength: Int
  package let maxLength: Int
  package let limit: [Int]
  package let base: [Int]
  package let permutation: [Int]

  package init(lengths: [UInt8]) {
    let minLength = Int(lengths.min() ?? 1)
    let maxLength = Int(lengths.max() ?? 1)
    var permutation: [Int] = []
    for length in minLength...maxLength {
      for (symbol, codeLength) in lengths.enumerated() where Int(codeLength) == length {
        permutation.append(symbol)
      }
    }
    var counts = [Int](repeating: 0, count: 23)
    for length in lengths { counts[Int(length)] += 1 }
    var limit = [Int](repeating: -1, count: 22)
    var base = [Int](repeating: 0, count: 22)
    var code = 0
    var assigned = 0
    for length in minLength...maxLength {
      base[length] = code - assigned
      code += counts[length]
      assigned += counts[length]
      limit[length] = code - 1
      code <<= 1
    }
    self.minLength = minLength
    self.maxLength = maxLength
    self.limit = limit
    self.base = base
    self.permutation = permutation
  }
}

/// The CRC of bzip2 blocks: CRC-32 with the same polynomial as gzip's, most significant bit first.
package struct Bzip2CRC {
  private var crc: UInt32 = 0xFFFF_FFFF
  package var value: UInt32 { ~crc }

  private static let table: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index) << 24
    for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
    return crc
  }

  package mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
    var crc = self.crc
    Self.table.withUnsafeBufferPointer { table in
      for index in 0..<count {
        crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(bytes[index]))]
      }
    }
    self.crc = crc
  }
}

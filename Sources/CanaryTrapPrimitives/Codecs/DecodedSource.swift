/// A ``ByteSource`` that hands out a decoder's output chunk by chunk and, once it has failed,
/// fails again on every read (a decoder's state is not trusted after an error).
package class DecodedSource: ByteSource {
  private var pending = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  private var pendingIndex = 0
  private var failure: (any Error)?
  private var ended = false

  /// The next chunk of output, empty at the end; subclasses decode here.
  package func nextChunk() throws -> UnsafeBufferPointer<UInt8> { fatalError("subclass") }

  package final func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    if let failure { throw failure }
    while pendingIndex == pending.count {
      if ended { return 0 }
      do {
        pending = try nextChunk()
      } catch {
        failure = error
        throw error
      }
      pendingIndex = 0
      if pending.isEmpty {
        ended = true
        return 0
      }
    }
    let taken = min(count, pending.count - pendingIndex)
    pointer.update(from: pending.baseAddress! + pendingIndex, count: taken)
    pendingIndex += taken
    return taken
  }
}

/// The decompressed bytes of a gzip file (RFC 1952): every member in turn, each checked against
/// its CRC-32 and length. Zero bytes after the last member (tape padding) are allowed; anything
/// else there is corrupt.
package final class GzipSource: DecodedSource {
  private let reader: ByteReader
  private let budget: any DecodingBudget
  private let inflater: Inflater
  private var inMember = false
  private var members = 0
  private var crc = CRC32()

  package init(_ reader: ByteReader, budget: any DecodingBudget) {
    self.reader = reader
    self.budget = budget
    inflater = Inflater(reader: reader)
  }

  package override func nextChunk() throws -> UnsafeBufferPointer<UInt8> {
    while true {
      if !inMember {
        guard try startMember() else { return UnsafeBufferPointer(start: nil, count: 0) }
      }
      let chunk = try inflater.next()
      if !chunk.isEmpty {
        try budget.expand(chunk.count)
        crc.update(chunk.baseAddress!, count: chunk.count)
        return chunk
      }
      guard let trailer = try reader.take(8) else {
        throw ContainerError.truncated("gzip member \(members + 1) ends before its CRC and length")
      }
      let storedCRC =
        UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
      let storedSize =
        UInt32(trailer[4]) | UInt32(trailer[5]) << 8 | UInt32(trailer[6]) << 16 | UInt32(trailer[7]) << 24
      guard storedCRC == crc.value else {
        throw ContainerError.corrupt("gzip member \(members + 1) fails its CRC-32 check")
      }
      guard storedSize == UInt32(truncatingIfNeeded: inflater.totalOut) else {
        throw ContainerError.corrupt(
          "gzip member \(members + 1) has a different length than its trailer says")
      }
      members += 1
      inMember = false
    }
  }

  /// Reads the next member's header; false at a clean end.
  private func startMember() throws -> Bool {
    if members > 0 {
      if try reader.atEnd() { return false }
      guard let magic = try reader.take(2) else {
        throw ContainerError.corrupt("a stray byte follows gzip member \(members)")
      }
      if magic[0] != 0x1F || magic[1] != 0x8B {
        guard magic[0] == 0, magic[1] == 0, try skipZeros() else {
          throw ContainerError.corrupt("bytes after gzip member \(members) are not another gzip member")
        }
        return false
      }
    } else {
      guard let magic = try reader.take(2), magic[0] == 0x1F, magic[1] == 0x8B else {
        throw ContainerError.corrupt("not a gzip header")
      }
    }
    guard let fixed = try reader.take(8) else {
      throw ContainerError.truncated("the gzip header is cut short")
    }
    guard fixed[0] == 8 else { throw ContainerError.unsupported("gzip compression method \(fixed[0])") }
    let flags = fixed[1]
    guard flags & 0xE0 == 0 else { throw ContainerError.corrupt("the gzip header sets reserved flags") }
    if flags & 0x04 != 0 {
      guard let length = try reader.take(2) else {
        throw ContainerError.truncated("the gzip header is cut short")
      }
      let extra = Int(length[0]) | Int(length[1]) << 8
      guard try reader.skip(extra) == extra else {
        throw ContainerError.truncated("the gzip header is cut short")
      }
    }
    for flag in [UInt8(0x08), 0x10] where flags & flag != 0 {
      while true {
        guard let byte = try reader.take(1) else {
          throw ContainerError.truncated("the gzip header is cut short")
        }
        if byte[0] == 0 { break }
      }
    }
    if flags & 0x02 != 0, try reader.skip(2) != 2 {
      throw ContainerError.truncated("the gzip header is cut short")
    }
    inflater.reset()
    crc = CRC32()
    inMember = true
    return true
  }

  /// Skips the rest of the input if it is all zeros.
  private func skipZeros() throws -> Bool {
    while true {
      if reader.available == 0, !(try reader.fill()) { return true }
      for index in reader.position..<reader.end where reader.buffer[index] != 0 { return false }
      reader.position = reader.end
    }
  }
}

/// The decompressed bytes of a zlib stream (RFC 1950), checked against its Adler-32.
package final class ZlibSource: DecodedSource {
  private let reader: ByteReader
  private let budget: any DecodingBudget
  private let inflater: Inflater
  private var started = false
  private var adler = Adler32()

  package init(_ reader: ByteReader, budget: any DecodingBudget) {
    self.reader = reader
    self.budget = budget
    inflater = Inflater(reader: reader)
  }

  package override func nextChunk() throws -> UnsafeBufferPointer<UInt8> {
    if !started {
      guard let header = try reader.take(2) else {
        throw ContainerError.truncated("the zlib header is cut short")
      }
      guard header[1] & 0x20 == 0 else {
        throw ContainerError.unsupported("a zlib stream with a preset dictionary")
      }
      started = true
    }
    let chunk = try inflater.next()
    if !chunk.isEmpty {
      try budget.expand(chunk.count)
      adler.update(chunk.baseAddress!, count: chunk.count)
      return chunk
    }
    guard let trailer = try reader.take(4) else {
      throw ContainerError.truncated("the zlib stream ends before its Adler-32")
    }
    let stored =
      UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8 | UInt32(trailer[3])
    guard stored == adler.value else {
      throw ContainerError.corrupt("the zlib stream fails its Adler-32 check")
    }
    guard try reader.atEnd() else { throw ContainerError.corrupt("bytes follow the end of the zlib stream") }
    return chunk
  }
}

/// A raw deflate member of a zip archive: its decompressed bytes, their CRC-32 and count.
package final class DeflateMemberSource: DecodedSource {
  private let budget: any DecodingBudget
  private let inflater: Inflater
  package private(set) var crc = CRC32()
  package private(set) var produced = 0

  package init(_ reader: ByteReader, budget: any DecodingBudget) {
    self.budget = budget
    inflater = Inflater(reader: reader)
  }

  package override func nextChunk() throws -> UnsafeBufferPointer<UInt8> {
    let chunk = try inflater.next()
    if !chunk.isEmpty {
      try budget.expand(chunk.count)
      crc.update(chunk.baseAddress!, count: chunk.count)
      produced += chunk.count
    }
    return chunk
  }
}

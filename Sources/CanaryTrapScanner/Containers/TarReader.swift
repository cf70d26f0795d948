import CanaryTrapPrimitives

/// Reads a tar archive (POSIX ustar, pax extended headers, GNU long names) as a stream and
/// expands each regular file; the archive must end with its zero block.
struct TarReader {
  let reader: ByteReader
  let budget: ExpansionBudget
  let name: String
  /// The longest pax or GNU long-name record read (1 MiB).
  static let maxMetadata = 1 << 20

  func read(scanner: ContainerScanner, depth: Int) throws {
    var longName: String?
    var paxPath: String?
    var paxSize: Int?
    while true {
      guard let header = try reader.take(512) else {
        throw ContainerError.truncated("the tar archive ends without its end-of-archive block")
      }
      if header.allSatisfy({ $0 == 0 }) { return }
      guard ContainerKind.isTarHeader(header) else {
        throw ContainerError.corrupt("a tar header at byte \(reader.offset - 512) fails its checksum")
      }
      guard let headerSize = Self.number(header, 124, 12) else {
        throw ContainerError.corrupt("a tar header has an unreadable size")
      }
      let type = header[156]
      let size = (type == 0x78 || type == 0x67) ? headerSize : (paxSize ?? headerSize)
      let padding = (512 - size % 512) % 512
      switch type {
      case 0x78, 0x4C:  // pax extended header 'x', GNU long name 'L'
        let text = try metadata(size: size)
        try skip(padding)
        if type == 0x4C {
          longName = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
        } else {
          let records = Self.paxRecords(text)
          paxPath = records["path"]
          paxSize = records["size"].flatMap { Int($0) }
        }
        continue
      // Regular files; a GNU sparse file ('S') is read as its stored data segments, which hold
      // every byte it has that is not a hole.
      case 0x30, 0x00, 0x37, 0x53:
        var path = longName ?? paxPath ?? Self.string(header, 0, 100)
        if longName == nil, paxPath == nil, Self.string(header, 257, 5) == "ustar" {
          let prefix = Self.string(header, 345, 155)
          if !prefix.isEmpty { path = prefix + "/" + path }
        }
        if type == 0x53 { try skipSparseExtensions(isExtended: header[482] != 0) }
        try budget.member()
        // The member's bytes are scanned as the member (and as its own container's raw bytes), so
        // the search of the archive's own bytes pauses over them rather than scan them twice.
        let observer = reader.observer
        let observedThrough = reader.offset + reader.available
        reader.observer = nil
        defer {
          reader.observer = observer
          // What a read during the member brought in past its end (the next headers, the end
          // blocks, bytes after them) was not observed: hand it over now, without the member's.
          let bufferedEnd = reader.offset + reader.available
          let from = max(observedThrough, reader.offset)
          if let observer, bufferedEnd > from {
            observer(
              UnsafeBufferPointer(
                start: reader.buffer + reader.position + (from - reader.offset), count: bufferedEnd - from))
          }
        }
        let member = BoundedSource(reader, length: size, what: "tar member \(path)")
        try scanner.expandMember(member, name: ContainerScanner.memberName(name, path), depth: depth)
        try member.drain()
      default:  // directories, links, devices, global pax headers: nothing to scan
        try skip(size)
      }
      try skip(padding)
      longName = nil
      paxPath = nil
      paxSize = nil
    }
  }

  /// Skips the extension blocks of an old GNU sparse header (each ends with a flag saying
  /// whether another follows); they come before the data and are not counted in its size.
  private func skipSparseExtensions(isExtended: Bool) throws {
    var more = isExtended
    var blocks = 0
    while more {
      blocks += 1
      guard blocks <= Self.maxMetadata / 512 else {
        throw ContainerError.overLimit("a sparse map of more than \(Self.maxMetadata) bytes")
      }
      guard let block = try reader.take(512) else {
        throw ContainerError.truncated("the tar archive ends inside a sparse map")
      }
      more = block[504] != 0
    }
  }

  private func skip(_ count: Int) throws {
    guard try reader.skip(count) == count else {
      throw ContainerError.truncated("the tar archive ends inside a member")
    }
  }

  private func metadata(size: Int) throws -> [UInt8] {
    guard size <= Self.maxMetadata else {
      throw ContainerError.overLimit("a tar metadata record of \(size) bytes is over \(Self.maxMetadata)")
    }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
      let read = try bytes.withUnsafeMutableBufferPointer {
        try reader.read(into: $0.baseAddress! + filled, count: size - filled)
      }
      if read == 0 { throw ContainerError.truncated("the tar archive ends inside a metadata record") }
      filled += read
    }
    return bytes
  }

  /// The `key=value` records of a pax extended header (`LENGTH key=value\n` each).
  static func paxRecords(_ bytes: [UInt8]) -> [String: String] {
    var records: [String: String] = [:]
    var index = 0
    while index < bytes.count {
      guard let space = bytes[index...].firstIndex(of: 0x20),
        let length = Int(String(decoding: bytes[index..<space], as: UTF8.self)),
        // The length counts its own digits and the space, and never reaches past the data.
        length > space - index, length <= bytes.count - index
      else { break }
      let record = bytes[(space + 1)..<(index + length)].dropLast(bytes[index + length - 1] == 0x0A ? 1 : 0)
      if let equals = record.firstIndex(of: 0x3D) {
        records[String(decoding: record[..<equals], as: UTF8.self)] = String(
          decoding: record[(equals + 1)...], as: UTF8.self)
      }
      index += length
    }
    return records
  }

  static func string(_ block: UnsafeBufferPointer<UInt8>, _ offset: Int, _ length: Int) -> String {
    String(decoding: block[offset..<(offset + length)].prefix { $0 != 0 }, as: UTF8.self)
  }

  /// A numeric field: octal digits (space or NUL padded), or GNU base-256 when the high bit is set.
  static func number(_ block: UnsafeBufferPointer<UInt8>, _ offset: Int, _ length: Int) -> Int? {
    if block[offset] & 0x80 != 0 {
      var value = 0
      for index in (offset + 1)..<(offset + length) {
        guard value < Int.max >> 9 else { return nil }
        value = value << 8 | Int(block[index])
      }
      return block[offset] == 0x80 ? value : nil
    }
    return octal(block, offset, length)
  }

  static func octal(_ block: UnsafeBufferPointer<UInt8>, _ offset: Int, _ length: Int) -> Int? {
    var value = 0
    var digits = 0
    for index in offset..<(offset + length) {
      let byte = block[index]
      if byte == 0x20 || byte == 0 {
        if digits > 0 { break }
        continue
      }
      guard (0x30...0x37).contains(byte), value < Int.max >> 4 else { return nil }
      value = value << 3 | Int(byte - 0x30)
      digits += 1
    }
    return digits > 0 ? value : nil
  }
}

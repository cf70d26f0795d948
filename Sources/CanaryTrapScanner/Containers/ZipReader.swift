import CanaryTrapPrimitives

/// Reads a zip archive (APPNOTE 6.3) front to back as a stream, so a zip nested in another
/// container needs no seeking: each local header, its stored or deflated data (checked against
/// its CRC-32 and size, from the header or from a data descriptor, zip64 sizes included), then
/// the central directory up to its end record.
///
/// Not read: encrypted members and methods other than stored and deflate; each is reported failed.
/// A zip at the top level of a source is also read through its central directory
/// (``ZipDirectorySweep``), for members this front-to-back read does not reach.
struct ZipReader {
  let reader: ByteReader
  let budget: ExpansionBudget
  let name: String

  private static let localHeader: UInt32 = 0x0403_4B50
  private static let centralHeader: UInt32 = 0x0201_4B50
  private static let endRecord: UInt32 = 0x0605_4B50
  private static let zip64EndRecord: UInt32 = 0x0606_4B50
  private static let zip64Locator: UInt32 = 0x0706_4B50
  private static let descriptor: UInt32 = 0x0807_4B50

  func read(scanner: ContainerScanner, depth: Int) throws {
    while true {
      let signature = try uint32("a header signature")
      switch signature {
      case Self.localHeader:
        scanner.readLocalHeader(at: reader.offset - 4, of: reader)
        try readMember(scanner: scanner, depth: depth)
      case Self.centralHeader, Self.zip64EndRecord, Self.zip64Locator, Self.endRecord:
        try readDirectory(startingWith: signature)
        return
      default:
        throw ContainerError.corrupt(
          "unexpected signature 0x\(String(signature, radix: 16)) at byte \(reader.offset - 4) of the zip")
      }
    }
  }

  private func readMember(scanner: ContainerScanner, depth: Int) throws {
    guard let fixed = try reader.take(26) else {
      throw ContainerError.truncated("a zip local header is cut short")
    }
    let flags = LittleEndian.le16(fixed, 2)
    let method = LittleEndian.le16(fixed, 4)
    let headerCRC = UInt32(LittleEndian.le32(fixed, 10))
    var compressedSize = LittleEndian.le32(fixed, 14)
    var size = LittleEndian.le32(fixed, 18)
    let nameLength = LittleEndian.le16(fixed, 22)
    let extraLength = LittleEndian.le16(fixed, 24)
    guard let nameBytes = try reader.take(nameLength) else {
      throw ContainerError.truncated("a zip local header is cut short")
    }
    let path = String(decoding: nameBytes, as: UTF8.self)
    guard let extra = try reader.take(extraLength).map(Array.init) else {
      throw ContainerError.truncated("a zip local header is cut short")
    }
    let zip64 = Self.zip64Field(extra)
    if let zip64 {
      if size == 0xFFFF_FFFF, zip64.count >= 8 { size = LittleEndian.le64(zip64, 0) }
      if compressedSize == 0xFFFF_FFFF, zip64.count >= 16 { compressedSize = LittleEndian.le64(zip64, 8) }
    }
    let hasDescriptor = flags & 0x08 != 0
    let memberName = ContainerScanner.memberName(name, path)
    try budget.member()
    guard flags & 0x01 == 0, method == 0 || method == 8 else {
      let problem = flags & 0x01 != 0 ? "encrypted member" : "compression method \(method)"
      // `zip -e` sets the data descriptor flag but still writes the sizes into the local header:
      // with a size there the member can be skipped, and its descriptor after it.
      guard !hasDescriptor || compressedSize > 0 else {
        throw ContainerError.unsupported("\(problem) \(path) with a data descriptor")
      }
      scanner.record(ContainerError.unsupported("\(problem); its bytes were not scanned"), at: memberName)
      guard try reader.skip(compressedSize) == compressedSize else {
        throw ContainerError.truncated("the zip ends inside member \(path)")
      }
      if hasDescriptor { try skipDescriptor(of: path) }
      return
    }
    if path.hasSuffix("/"), !hasDescriptor, compressedSize == 0 { return }  // a directory
    var crc: UInt32
    var produced: Int
    var descriptorIsZip64 = zip64 != nil
    if method == 0, hasDescriptor {
      let member = DescriptorEndedSource(reader, path: path)
      try scanner.expandMember(member, name: memberName, depth: depth)
      let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
      defer { scratch.deallocate() }
      while try member.read(into: scratch, count: 4096) > 0 {}
      (crc, produced) = (member.crc.value, member.produced)
      if try reader.ensure(16) {
        let descriptor = UnsafeBufferPointer(start: reader.buffer + reader.position, count: 16)
        let narrow =
          LittleEndian.le32(descriptor, 8) == produced && LittleEndian.le32(descriptor, 12) == produced
        descriptorIsZip64 = descriptorIsZip64 || !narrow
      }
    } else if method == 0 {
      let member = CheckedStoredSource(
        BoundedSource(reader, length: compressedSize, what: "zip member \(path)"))
      try scanner.expandMember(member, name: memberName, depth: depth)
      try member.drain()
      (crc, produced) = (member.crc.value, member.produced)
    } else {
      let start = reader.offset
      let member = DeflateMemberSource(reader, budget: budget)
      try scanner.expandMember(member, name: memberName, depth: depth)
      let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
      defer { scratch.deallocate() }
      while try member.read(into: scratch, count: 4096) > 0 {}
      (crc, produced) = (member.crc.value, member.produced)
      if !hasDescriptor, reader.offset - start != compressedSize {
        throw ContainerError.corrupt("member \(path)'s deflate data does not fill its stored size")
      }
    }
    var expectedCRC = headerCRC
    var expectedSize = size
    if hasDescriptor {
      var first = try uint32("a data descriptor")
      if first == Self.descriptor { first = try uint32("a data descriptor") }
      expectedCRC = first
      if descriptorIsZip64 {
        _ = try uint64("a data descriptor")
        expectedSize = Int(truncatingIfNeeded: try uint64("a data descriptor"))
      } else {
        _ = try uint32("a data descriptor")
        expectedSize = Int(try uint32("a data descriptor"))
      }
    }
    guard crc == expectedCRC else { throw ContainerError.corrupt("member \(path) fails its CRC-32 check") }
    guard produced == expectedSize else {
      throw ContainerError.corrupt("member \(path) holds \(produced) bytes, its header says \(expectedSize)")
    }
  }

  /// Skips the data descriptor after a member that was not read: signature optional, then a
  /// CRC-32 and 32-bit or 64-bit sizes, told apart by the header signature that must follow.
  private func skipDescriptor(of path: String) throws {
    if try reader.ensure(4),
      UInt32(LittleEndian.le32(UnsafeBufferPointer(start: reader.buffer + reader.position, count: 4), 0))
        == Self.descriptor
    {
      reader.position += 4
    }
    let headers: Set<UInt32> = [Self.localHeader, Self.centralHeader, Self.endRecord]
    for length in [12, 20] {
      guard try reader.ensure(length + 4) else { break }
      let next = UInt32(
        LittleEndian.le32(UnsafeBufferPointer(start: reader.buffer + reader.position + length, count: 4), 0))
      if headers.contains(next) {
        reader.position += length
        return
      }
    }
    throw ContainerError.corrupt("no header follows the data descriptor of member \(path)")
  }

  /// Skips the central directory and its end records, requiring the end-of-central-directory
  /// record so an archive cut short is not taken as whole.
  private func readDirectory(startingWith first: UInt32) throws {
    var signature = first
    while true {
      switch signature {
      case Self.centralHeader:
        guard let fixed = try reader.take(42) else { throw truncatedDirectory }
        try skip(LittleEndian.le16(fixed, 24) + LittleEndian.le16(fixed, 26) + LittleEndian.le16(fixed, 28))
      case Self.zip64EndRecord:
        try skip(Int(truncatingIfNeeded: try uint64("the zip64 end record")))
      case Self.zip64Locator:
        try skip(16)
      case Self.endRecord:
        guard let fixed = try reader.take(18) else { throw truncatedDirectory }
        try skip(LittleEndian.le16(fixed, 16))
        return
      default:
        throw ContainerError.corrupt(
          "unexpected signature 0x\(String(signature, radix: 16)) in the zip's directory")
      }
      signature = try uint32("the central directory")
    }
  }

  private var truncatedDirectory: ContainerError {
    .truncated("the zip ends before its end-of-central-directory record")
  }

  private func skip(_ count: Int) throws {
    guard count >= 0, try reader.skip(count) == count else { throw truncatedDirectory }
  }

  private func uint32(_ what: String) throws -> UInt32 {
    guard let bytes = try reader.take(4) else {
      throw ContainerError.truncated("the zip ends inside \(what)")
    }
    return UInt32(LittleEndian.le32(bytes, 0))
  }

  private func uint64(_ what: String) throws -> UInt64 {
    guard let bytes = try reader.take(8) else {
      throw ContainerError.truncated("the zip ends inside \(what)")
    }
    return UInt64(LittleEndian.le32(bytes, 0)) | UInt64(LittleEndian.le32(bytes, 4)) << 32
  }

  /// Whether a local header signature comes next (a second archive appended to the first).
  static func localHeaderFollows(_ reader: ByteReader) throws -> Bool {
    guard try reader.ensure(4) else { return false }
    let next = UnsafeBufferPointer(start: reader.buffer + reader.position, count: 4)
    return UInt32(LittleEndian.le32(next, 0)) == localHeader
  }

  /// The data of the zip64 extended information field (id 1) of `extra`, if any.
  static func zip64Field(_ extra: [UInt8]) -> [UInt8]? {
    var index = 0
    while index + 4 <= extra.count {
      let id = Int(extra[index]) | Int(extra[index + 1]) << 8
      let length = Int(extra[index + 2]) | Int(extra[index + 3]) << 8
      guard index + 4 + length <= extra.count else { return nil }
      if id == 1 { return Array(extra[(index + 4)..<(index + 4 + length)]) }
      index += 4 + length
    }
    return nil
  }

}

/// A stored zip member's bytes, with their CRC-32 and count.
final class CheckedStoredSource: ByteSource {
  private let inner: BoundedSource
  private(set) var crc = CRC32()
  private(set) var produced = 0

  init(_ inner: BoundedSource) { self.inner = inner }

  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    let read = try inner.read(into: pointer, count: count)
    crc.update(pointer, count: read)
    produced += read
    return read
  }

  /// Reads whatever the child left, so the CRC covers the whole member.
  func drain() throws {
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    defer { scratch.deallocate() }
    while try read(into: scratch, count: 4096) > 0 {}
  }
}

/// A stored zip member whose size only its data descriptor gives (as python's zipfile writes to a
/// pipe): its bytes run up to the first `PK\u{7}\u{8}` followed by the CRC-32 and sizes of exactly
/// the bytes before it (32-bit or zip64 sizes). The reader is left at that descriptor.
final class DescriptorEndedSource: ByteSource {
  private let reader: ByteReader
  private let path: String
  private(set) var crc = CRC32()
  private(set) var produced = 0
  private var ended = false
  /// Bytes kept unread so a descriptor is always whole when it is checked.
  private static let lookahead = 24

  init(_ reader: ByteReader, path: String) {
    self.reader = reader
    self.path = path
  }

  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    guard !ended else { return 0 }
    while true {
      _ = try reader.ensure(Self.lookahead)
      let available = reader.available
      let base = reader.buffer + reader.position
      if available >= 16, isDescriptor(base, available) {
        ended = true
        return 0
      }
      guard available > 0 else {
        throw ContainerError.truncated("the zip ends inside stored member \(path) before its data descriptor")
      }
      // Emit up to the next possible signature (never the lookahead, unless the input ends).
      let limit = min(count, available < Self.lookahead ? available : available - Self.lookahead + 1)
      var length = 1
      while length < limit, !(base[length] == 0x50 && base[length + 1] == 0x4B) { length += 1 }
      pointer.update(from: base, count: length)
      crc.update(base, count: length)
      produced += length
      reader.position += length
      return length
    }
  }

  private func isDescriptor(_ bytes: UnsafeMutablePointer<UInt8>, _ available: Int) -> Bool {
    guard bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 7, bytes[3] == 8 else { return false }
    let field = { (offset: Int, size: Int) -> UInt64 in
      var value: UInt64 = 0
      for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
      return value
    }
    guard field(4, 4) == UInt64(crc.value) else { return false }
    if field(8, 4) == UInt64(produced), field(12, 4) == UInt64(produced) { return true }
    return available >= 24 && field(8, 8) == UInt64(produced) && field(16, 8) == UInt64(produced)
  }
}

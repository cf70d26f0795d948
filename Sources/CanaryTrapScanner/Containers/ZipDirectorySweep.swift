import CanaryTrapPrimitives

/// Reads a zip file's members through its central directory, by offset, for a zip at the top
/// level of a source: a member the front-to-back read did not reach (one whose local header only
/// the central directory points to, such as one hidden in another header's extra field) and the
/// members of a zip behind a stub (a self-extractor, or text put in front) are read too. Offsets
/// are moved by what precedes the archive (where the end record is, less where it says the
/// directory ends).
struct ZipDirectorySweep {
  let file: any RandomAccessBytes
  let name: String
  /// The largest central directory read (64 MiB).
  static let maxDirectory = 64 << 20

  /// The end-of-central-directory record in the last 64 KiB and 22 bytes of `file`: where the
  /// directory is (just before the end record), how long it is, and how far the archive was moved
  /// from where its offsets say (the bytes in front of it); nil when there is none.
  static func locate(_ file: any RandomAccessBytes) -> (start: Int, size: Int, shift: Int)? {
    let tailLength = min(file.size, 0xFFFF + 22)
    guard tailLength >= 22 else { return nil }
    let tailStart = file.size - tailLength
    var tail = [UInt8](repeating: 0, count: tailLength)
    guard (try? read(file, at: tailStart, into: &tail)) != nil else { return nil }
    var index = tailLength - 22
    while index >= 0 {
      if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 5, tail[index + 3] == 6 {
        var size = LittleEndian.le32(tail, index + 12)
        var offset = LittleEndian.le32(tail, index + 16)
        var end = tailStart + index
        if offset == 0xFFFF_FFFF || size == 0xFFFF_FFFF, let zip64 = zip64End(file, before: end) {
          (size, offset, end) = zip64
        }
        let start = end - size
        // A directory must start with a central header where the end record puts it, so four
        // bytes that only look like an end record (in a text log) are not taken for a zip.
        var first = [UInt8](repeating: 0, count: 4)
        if size >= 46, start >= 0, offset <= start, (try? read(file, at: start, into: &first)) != nil,
          LittleEndian.le32(first, 0) == 0x0201_4B50
        {
          return (start, size, start - offset)
        }
      }
      index -= 1
    }
    return nil
  }

  /// The directory's size and offset from a zip64 end record, and where that record is.
  private static func zip64End(_ file: any RandomAccessBytes, before end: Int) -> (Int, Int, Int)? {
    guard end >= 20 else { return nil }
    var locator = [UInt8](repeating: 0, count: 20)
    guard (try? read(file, at: end - 20, into: &locator)) != nil, LittleEndian.le32(locator, 0) == 0x0706_4B50
    else { return nil }
    // The record sits just before the locator whatever offset it claims (a stub moves it).
    let record = end - 20 - 56
    guard record >= 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: 56)
    guard (try? read(file, at: record, into: &bytes)) != nil, LittleEndian.le32(bytes, 0) == 0x0606_4B50
    else { return nil }
    return (LittleEndian.le64(bytes, 40), LittleEndian.le64(bytes, 48), record)
  }

  /// Fills `bytes` from `offset` of `file`.
  private static func read(_ file: any RandomAccessBytes, at offset: Int, into bytes: inout [UInt8]) throws {
    let count = bytes.count
    try bytes.withUnsafeMutableBufferPointer {
      try file.read(at: offset, count: count, into: $0.baseAddress!)
    }
  }

  /// Reads every member whose local header is not in `read` (offsets the stream read reached).
  func read(scanner: ContainerScanner, skipping read: Set<Int>, depth: Int) throws {
    guard let (start, size, shift) = Self.locate(file) else { return }
    guard size <= Self.maxDirectory else {
      throw ContainerError.overLimit("a zip central directory of \(size) bytes is over \(Self.maxDirectory)")
    }
    var directory = [UInt8](repeating: 0, count: size)
    try Self.read(file, at: start, into: &directory)
    var index = 0
    while index + 46 <= size, LittleEndian.le32(directory, index) == 0x0201_4B50 {
      let flags = LittleEndian.le16(directory, index + 8)
      let method = LittleEndian.le16(directory, index + 10)
      let crc = UInt32(LittleEndian.le32(directory, index + 16))
      var compressedSize = LittleEndian.le32(directory, index + 20)
      var uncompressedSize = LittleEndian.le32(directory, index + 24)
      let nameLength = LittleEndian.le16(directory, index + 28)
      let extraLength = LittleEndian.le16(directory, index + 30)
      let commentLength = LittleEndian.le16(directory, index + 32)
      var local = LittleEndian.le32(directory, index + 42)
      let end = index + 46 + nameLength + extraLength + commentLength
      guard end <= size else { throw ContainerError.corrupt("a central directory entry runs past it") }
      let path = String(decoding: directory[(index + 46)..<(index + 46 + nameLength)], as: UTF8.self)
      let extra = Array(directory[(index + 46 + nameLength)..<(index + 46 + nameLength + extraLength)])
      if let zip64 = ZipReader.zip64Field(extra) {
        var field = 0
        if uncompressedSize == 0xFFFF_FFFF, zip64.count >= field + 8 {
          uncompressedSize = LittleEndian.le64(zip64, field)
          field += 8
        }
        if compressedSize == 0xFFFF_FFFF, zip64.count >= field + 8 {
          compressedSize = LittleEndian.le64(zip64, field)
          field += 8
        }
        if local == 0xFFFF_FFFF, zip64.count >= field + 8 { local = LittleEndian.le64(zip64, field) }
      }
      index = end
      let offset = local + shift
      guard !read.contains(offset) else { continue }
      if path.hasSuffix("/"), compressedSize == 0 { continue }
      let memberName = ContainerScanner.memberName(name, path)
      try scanner.budget.member()
      do {
        try readMember(
          at: offset, path: path, flags: flags, method: method, crc: crc, compressedSize: compressedSize,
          size: uncompressedSize, memberName: memberName, scanner: scanner, depth: depth)
      } catch let error as ContainerError where !error.stopsEverything {
        scanner.record(error, at: memberName)
      }
    }
  }

  private func readMember(
    at offset: Int, path: String, flags: Int, method: Int, crc: UInt32, compressedSize: Int, size: Int,
    memberName: String, scanner: ContainerScanner, depth: Int
  ) throws {
    guard offset >= 0, offset + 30 <= file.size else {
      throw ContainerError.corrupt("its local header offset \(offset) is outside the file")
    }
    var header = [UInt8](repeating: 0, count: 30)
    try Self.read(file, at: offset, into: &header)
    guard LittleEndian.le32(header, 0) == 0x0403_4B50 else {
      throw ContainerError.corrupt("no local header at offset \(offset), where the central directory points")
    }
    let dataStart = offset + 30 + LittleEndian.le16(header, 26) + LittleEndian.le16(header, 28)
    guard flags & 0x01 == 0, method == 0 || method == 8 else {
      let problem = flags & 0x01 != 0 ? "encrypted member" : "compression method \(method)"
      throw ContainerError.unsupported("\(problem); its bytes were not scanned")
    }
    guard compressedSize >= 0, dataStart + compressedSize <= file.size else {
      throw ContainerError.truncated("member \(path) runs past the end of the file")
    }
    let reader = ByteReader(RandomAccessSource(file, from: dataStart, count: compressedSize))
    if method == 0 {
      let member = CheckedStoredSource(
        BoundedSource(reader, length: compressedSize, what: "zip member \(path)"))
      try scanner.expandMember(member, name: memberName, depth: depth)
      try member.drain()
      guard member.crc.value == crc else {
        throw ContainerError.corrupt("member \(path) fails its CRC-32 check")
      }
    } else {
      let member = DeflateMemberSource(reader, budget: scanner.budget)
      try scanner.expandMember(member, name: memberName, depth: depth)
      let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
      defer { scratch.deallocate() }
      while try member.read(into: scratch, count: 4096) > 0 {}
      guard member.crc.value == crc else {
        throw ContainerError.corrupt("member \(path) fails its CRC-32 check")
      }
      guard member.produced == size else {
        throw ContainerError.corrupt("member \(path) holds \(member.produced) bytes, its entry says \(size)")
      }
    }
  }
}

/// `count` bytes of random-access bytes from `from`, as a stream.
final class RandomAccessSource: ByteSource {
  private let bytes: any RandomAccessBytes
  private var position: Int
  private let end: Int

  init(_ bytes: any RandomAccessBytes, from: Int, count: Int) {
    self.bytes = bytes
    position = from
    end = from + count
  }

  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    let taken = min(count, end - position)
    guard taken > 0 else { return 0 }
    try bytes.read(at: position, count: taken, into: pointer)
    position += taken
    return taken
  }
}

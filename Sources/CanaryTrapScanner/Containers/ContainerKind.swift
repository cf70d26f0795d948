/// The container formats recognized by their first bytes (never by a file's name).
enum ContainerKind: Equatable {
  case gzip, zlib, bzip2, appleLZ4, lzfse, zip, tar, sqlite, sqliteWAL, binaryPropertyList, plain
  /// A format recognized but not decoded: reported failed, never scanned raw as clean.
  case unopened(UnopenedFormat)

  /// How many leading bytes ``detect(_:)`` wants (a tar header's checksum covers 512).
  static let prefixLength = 512

  /// The format of a stream starting with `prefix`.
  static func detect(_ prefix: UnsafeBufferPointer<UInt8>) -> ContainerKind {
    let count = prefix.count
    if count >= 3, prefix[0] == 0x1F, prefix[1] == 0x8B, prefix[2] == 8 { return .gzip }
    // bzip2: "BZh", the block size digit, then a block's or the stream end's 48-bit magic.
    if count >= 10, prefix[0] == 0x42, prefix[1] == 0x5A, prefix[2] == 0x68,
      (0x31...0x39).contains(prefix[3]),
      prefix[4..<10].elementsEqual([0x31, 0x41, 0x59, 0x26, 0x53, 0x59])
        || prefix[4..<10].elementsEqual([0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
    {
      return .bzip2
    }
    // Apple's LZ4 framing: a compressed (`bv41`) or stored (`bv4-`) block with its sizes.
    if count >= 12, prefix[0..<3].elementsEqual(Array("bv4".utf8)), prefix[3] == 0x31 || prefix[3] == 0x2D {
      return .appleLZ4
    }
    if count >= 16, prefix[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) { return .sqlite }
    if count >= 8, prefix[0..<8].elementsEqual(Array("bplist00".utf8)) { return .binaryPropertyList }
    if count >= 32, prefix[0] == 0x37, prefix[1] == 0x7F, prefix[2] == 0x06, prefix[3] & 0xFE == 0x82 {
      return .sqliteWAL
    }
    if count >= 4, prefix[0] == 0x50, prefix[1] == 0x4B,
      (prefix[2] == 3 && prefix[3] == 4) || (prefix[2] == 5 && prefix[3] == 6)
    {
      return .zip
    }
    // zlib: deflate with a 32 KiB window and one of the four FLG bytes zlib writes; "x^" could
    // start a text file, so that one also needs a non-text third byte.
    if count >= 3, prefix[0] == 0x78,
      [0x01, 0x9C, 0xDA].contains(prefix[1]) || (prefix[1] == 0x5E && !(0x20..<0x7F).contains(prefix[2]))
    {
      return .zlib
    }
    if count >= 512, isTarHeader(prefix) { return .tar }
    if let format = UnopenedFormat.detect(prefix) {
      #if canImport(Compression)
        if format == .lzfse { return .lzfse }
      #endif
      return .unopened(format)
    }
    return .plain
  }

  /// Whether `block` is a tar header: a name, and a checksum that matches.
  static func isTarHeader(_ block: UnsafeBufferPointer<UInt8>) -> Bool {
    guard block.count >= 512, block[0] != 0, let stored = TarReader.octal(block, 148, 8) else { return false }
    var sum = 0
    for index in 0..<512 { sum += (148..<156).contains(index) ? 0x20 : Int(block[index]) }
    return sum == stored
  }
}

import CanaryTrapPrimitives

/// A compressed or archive format the scanner recognizes by its first bytes but does not decode:
/// its content is reported not looked at (the source fails), never scanned raw and called clean.
struct UnopenedFormat: Equatable {
  /// What the content is, as the failure names it ("xz-compressed").
  let name: String
  /// A command that decompresses `FILE` to standard output, for the failure's advice.
  let command: String

  /// The failure a source of this format reports.
  var error: ContainerError {
    .unsupported("\(name) content is not opened; decompress it first: `\(command) | canary scan -`")
  }

  static let xz = UnopenedFormat(name: "xz-compressed", command: "xz -dc FILE")
  static let lzma = UnopenedFormat(name: "lzma-compressed (.lzma)", command: "xz -dc FILE")
  static let zstd = UnopenedFormat(name: "zstd-compressed", command: "zstd -dc FILE")
  static let lz4Frame = UnopenedFormat(name: "lz4-compressed (lz4 frame)", command: "lz4 -dc FILE")
  static let unixCompress = UnopenedFormat(name: "compress-ed (.Z)", command: "gzip -dc FILE")
  /// Opened on Apple platforms through the Compression framework (`LZFSESource`).
  static let lzfse = UnopenedFormat(
    name: "LZFSE-compressed (Apple Compression)", command: "lzfse -decode -i FILE")
  static let sevenZip = UnopenedFormat(name: "7z archive", command: "7z x -so FILE")
  static let rar = UnopenedFormat(name: "RAR archive", command: "unrar p -inul FILE")

  /// The unopened format `prefix` starts with, if any.
  static func detect(_ prefix: UnsafeBufferPointer<UInt8>) -> UnopenedFormat? {
    func starts(_ bytes: [UInt8]) -> Bool {
      prefix.count >= bytes.count && prefix[0..<bytes.count].elementsEqual(bytes)
    }
    if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
    // A .lzma header: properties 0x5D (lc 3, lp 0, pb 2), a dictionary size that is a multiple of
    // 64 KiB, and a size that is unknown (all ones) or below 2^48.
    if prefix.count >= 13, starts([0x5D, 0x00, 0x00]),
      prefix[5..<13].allSatisfy({ $0 == 0xFF }) || (prefix[11] == 0 && prefix[12] == 0)
    {
      return .lzma
    }
    if starts([0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
    // A zstd skippable frame (0x184D2A50 to 0x184D2A5F).
    if prefix.count >= 4, prefix[0] & 0xF0 == 0x50, prefix[1] == 0x2A, prefix[2] == 0x4D, prefix[3] == 0x18 {
      return .zstd
    }
    if starts([0x04, 0x22, 0x4D, 0x18]) || starts([0x02, 0x21, 0x4C, 0x18]) { return .lz4Frame }
    // compress: its flag byte holds 9 to 16 bits per code and no unused bit.
    if prefix.count >= 3, starts([0x1F, 0x9D]), prefix[2] & 0x60 == 0, (9...16).contains(prefix[2] & 0x1F) {
      return .unixCompress
    }
    // LZFSE blocks: compressed (v1, v2), LZVN and uncompressed, each with a size after the magic.
    if prefix.count >= 8, starts(Array("bvx".utf8)), [0x31, 0x32, 0x6E, 0x2D].contains(prefix[3]) {
      return .lzfse
    }
    if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return .sevenZip }
    if starts(Array("Rar!\u{1A}\u{07}".utf8)) { return .rar }
    return nil
  }
}

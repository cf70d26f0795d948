/// A compressed format a payload decoded from the text is recognized by from its first bytes,
/// besides gzip, zlib, zip and raw deflate: bzip2 and Apple's LZ4 framing, opened; LZFSE, opened
/// where the Compression framework is; and the formats the scanner never opens (xz, zstd, an LZ4
/// frame, 7z, RAR), whose content makes the source inconclusive.
///
/// Recognized by the same signatures as a file (``ContainerKind``), save two too short to tell a
/// payload from random bytes a base64 token decodes to: `compress` (`1f 9d`) and `.lzma`.
enum HeaderedFormat: Equatable {
  case bzip2, lz4, lzfse
  case unopened(UnopenedFormat)

  /// The format of decoded bytes starting with `head` (their first 12 bytes, or all), or `nil`.
  init?(_ head: UnsafeBufferPointer<UInt8>) {
    guard head.count >= 4, Self.mayBeSignature(head[0], head[1]) else { return nil }
    switch ContainerKind.detect(head) {
    case .bzip2: self = .bzip2
    case .appleLZ4: self = .lz4
    case .lzfse: self = .lzfse
    case .unopened(let format) where format != .unixCompress && format != .lzma: self = .unopened(format)
    default: return nil
    }
  }

  /// Why a payload in `format`, which the scanner does not open, leaves the source inconclusive.
  static func failure(_ format: UnopenedFormat) -> String {
    "a payload decoded from the text is \(format.name), which is not opened here: its content was not looked at"
  }

  /// Whether two first bytes may start one of the signatures (tested before the whole header,
  /// as nearly every payload fails it): `BZ`, `bv` (Apple's LZ4 and LZFSE), xz, zstd (a frame or
  /// a skippable frame), an LZ4 frame (current and legacy), 7z and RAR.
  @inline(__always)
  static func mayBeSignature(_ first: UInt8, _ second: UInt8) -> Bool {
    switch (first, second) {
    case (0x42, 0x5A), (0x62, 0x76), (0xFD, 0x37), (0x28, 0xB5), (0x04, 0x22), (0x02, 0x21), (0x37, 0x7A),
      (0x52, 0x61):
      true
    default: first & 0xF0 == 0x50 && second == 0x2A
    }
  }
}

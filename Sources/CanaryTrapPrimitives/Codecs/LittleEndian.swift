/// Little-endian integers read from bytes: the field order of zip, gzip and the Apple containers.
package enum LittleEndian {
  /// The 16-bit value at `offset`.
  package static func le16(_ bytes: some Collection<UInt8>, _ offset: Int) -> Int {
    let start = bytes.index(bytes.startIndex, offsetBy: offset)
    return Int(bytes[start]) | Int(bytes[bytes.index(after: start)]) << 8
  }

  /// The 32-bit value at `offset`.
  package static func le32(_ bytes: some Collection<UInt8>, _ offset: Int) -> Int {
    le16(bytes, offset) | le16(bytes, offset + 2) << 16
  }

  /// The 64-bit value at `offset`.
  package static func le64(_ bytes: [UInt8], _ offset: Int) -> Int {
    Int(truncatingIfNeeded: UInt64(le32(bytes, offset)) | UInt64(le32(bytes, offset + 4)) << 32)
  }
}

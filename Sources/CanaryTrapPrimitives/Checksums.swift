/// CRC-32 (ISO 3309, as gzip and zip use it), eight bytes per step (slicing-by-8).
package struct CRC32 {
  package private(set) var value: UInt32 = 0

  /// A checksum of no bytes.
  package init() {}

  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var crc = UInt32(index)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      tables[index] = crc
    }
    for index in 0..<256 {
      for slice in 1..<8 {
        let previous = tables[(slice - 1) * 256 + index]
        tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// Adds `count` bytes at `bytes`.
  package mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
    var crc = ~value
    Self.tables.withUnsafeBufferPointer { table in
      let t = table.baseAddress!
      let raw = UnsafeRawPointer(bytes)
      var index = 0
      while count - index >= 8 {
        let low = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
        let high = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        index += 8
      }
      while index < count {
        crc = (crc >> 8) ^ t[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
        index += 1
      }
    }
    value = ~crc
  }
}

/// Adler-32 (RFC 1950), the checksum of zlib streams.
package struct Adler32 {
  private var a: UInt32 = 1
  private var b: UInt32 = 0
  package var value: UInt32 { b << 16 | a }

  /// A checksum of no bytes.
  package init() {}

  /// Adds `count` bytes at `bytes`.
  package mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
    var index = 0
    while index < count {
      let stop = min(count, index + 5552)
      while index < stop {
        a &+= UInt32(bytes[index])
        b &+= a
        index += 1
      }
      a %= 65521
      b %= 65521
    }
  }
}

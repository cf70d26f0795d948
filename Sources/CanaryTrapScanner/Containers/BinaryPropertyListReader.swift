import CanaryTrapPrimitives

/// Reads a binary property list (`bplist00`, as `PropertyListSerialization`, `NSKeyedArchiver` and
/// python's plistlib write it) through its offset table: every object in turn, strings (ASCII and
/// UTF-16, given as UTF-8), data, numbers and dates, so an archived object's values are all seen
/// whatever its nesting.
struct BinaryPropertyListReader {
  let bytes: [UInt8]
  private let offsetSize: Int
  private let objectCount: Int
  private let tableOffset: Int

  init(_ bytes: [UInt8]) throws {
    self.bytes = bytes
    guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
      throw ContainerError.truncated("the binary property list is shorter than its header and trailer")
    }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    objectCount = Self.integer(bytes, trailer + 8, 8)
    tableOffset = Self.integer(bytes, trailer + 24, 8)
    guard (1...8).contains(offsetSize), objectCount >= 0, objectCount <= bytes.count,
      tableOffset >= 8, tableOffset <= trailer, objectCount <= (trailer - tableOffset) / offsetSize
    else {
      throw ContainerError.corrupt("the binary property list's trailer does not fit the file")
    }
  }

  /// Calls `object` with each object's index and its bytes as text (empty for containers).
  func read(object: (Int, PropertyListObject) throws -> Void) throws {
    for index in 0..<objectCount {
      let offset = Self.integer(bytes, tableOffset + index * offsetSize, offsetSize)
      guard offset >= 8, offset < tableOffset else {
        throw ContainerError.corrupt("object \(index) of the property list is outside it")
      }
      try object(index, try decode(at: offset))
    }
  }

  private func decode(at offset: Int) throws -> PropertyListObject {
    let marker = bytes[offset]
    let kind = marker >> 4
    let low = Int(marker & 0x0F)
    switch kind {
    case 0x0: return .other
    case 0x1:
      let size = 1 << low
      guard size <= 16, offset + 1 + size <= tableOffset else { throw corrupt(offset) }
      return .text(Array(String(Self.integer(bytes, offset + 1, min(size, 8))).utf8))
    case 0x2, 0x3:
      let size = kind == 0x3 ? 8 : 1 << low
      guard size == 4 || size == 8, offset + 1 + size <= tableOffset else { throw corrupt(offset) }
      var bits: UInt64 = 0
      for byte in bytes[(offset + 1)..<(offset + 1 + size)] { bits = bits << 8 | UInt64(byte) }
      let value = size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
      return .text(Array(String(value).utf8))
    case 0x4, 0x5, 0x6:
      var start = offset + 1
      var count = low
      if low == 0x0F {
        guard start < tableOffset, bytes[start] >> 4 == 0x1 else { throw corrupt(offset) }
        let size = 1 << Int(bytes[start] & 0x0F)
        guard size <= 8, start + 1 + size <= tableOffset else { throw corrupt(offset) }
        count = Self.integer(bytes, start + 1, size)
        start += 1 + size
      }
      let length = kind == 0x6 ? count &* 2 : count
      guard count >= 0, length >= 0, length <= tableOffset - start else { throw corrupt(offset) }
      let content = Array(bytes[start..<(start + length)])
      switch kind {
      case 0x4: return .data(content)
      case 0x5: return .text(content)
      default:
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for index in 0..<count {
          units.append(UInt16(content[2 * index]) << 8 | UInt16(content[2 * index + 1]))
        }
        return .text(Array(String(decoding: units, as: UTF16.self).utf8))
      }
    case 0x8:
      guard offset + 2 + low <= tableOffset else { throw corrupt(offset) }
      return .text(Array(String(Self.integer(bytes, offset + 1, min(low + 1, 8))).utf8))
    case 0xA, 0xC, 0xD: return .other
    default: throw corrupt(offset)
    }
  }

  private func corrupt(_ offset: Int) -> ContainerError {
    .corrupt("the property list object at byte \(offset) does not fit")
  }

  static func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
    var value: UInt64 = 0
    for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
    return Int(truncatingIfNeeded: value)
  }
}

/// One object of a binary property list, as the scanner sees it.
enum PropertyListObject: Equatable {
  /// A string, number, date or UID as text.
  case text([UInt8])
  /// A data object: scanned as bytes, and opened when it is itself a container.
  case data([UInt8])
  /// Arrays, sets, dictionaries, booleans, null: their members are objects of their own.
  case other
}

/// Counts newlines so findings can name a 1-based line and byte column in a streamed source.
struct LineCounter {
  /// Newlines before ``position``.
  private(set) var newlines = 0
  /// The absolute offset of the last newline before ``position``, or -1.
  private(set) var lastNewline = -1
  /// The absolute offset up to which bytes were counted.
  private(set) var position = 0

  /// Counts the newlines of `bytes`, which start at absolute offset ``position``.
  mutating func advance(over bytes: UnsafePointer<UInt8>, count: Int) {
    let found = Self.countNewlines(bytes, count)
    if found > 0 {
      newlines += found
      var index = count - 1
      while bytes[index] != 0x0A { index -= 1 }
      lastNewline = position + index
    }
    position += count
  }

  /// The 1-based line and byte column of the current ``position``.
  var lineAndColumn: (line: Int, column: Int) { (newlines + 1, position - lastNewline) }

  /// The number of `\n` bytes, 32 at a time: each block compared with a newline gives 0xFF per
  /// newline lane, subtracted into a per-lane counter, summed every 255 blocks before a lane
  /// could overflow; the tail one byte at a time.
  static func countNewlines(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    let raw = UnsafeRawPointer(bytes)
    let newline = SIMD32<UInt8>(repeating: 0x0A)
    var total = 0
    var index = 0
    while count - index >= 32 {
      var lanes = SIMD32<UInt8>()
      var rounds = 0
      while rounds < 255, count - index >= 32 {
        let block = raw.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
        lanes &-= unsafeBitCast(block .== newline, to: SIMD32<UInt8>.self)
        index &+= 32
        rounds &+= 1
      }
      total &+= Int(SIMD32<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
    }
    while index < count {
      if bytes[index] == 0x0A { total += 1 }
      index += 1
    }
    return total
  }
}

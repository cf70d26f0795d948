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

  /// The number of `\n` bytes, eight at a time (SWAR): each newline byte becomes 0x01 in a
  /// per-byte counter, summed every 255 words before a lane could overflow.
  static func countNewlines(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    let raw = UnsafeRawPointer(bytes)
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var total = 0
    var index = 0
    while count - index >= 8 {
      var lanes: UInt64 = 0
      var rounds = 0
      while rounds < 255, count - index >= 8 {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
        // High bit set exactly in the bytes that were zero (that is, newlines).
        let zero = ~(((word & low7) &+ low7) | word | low7)
        lanes &+= zero &>> 7
        index &+= 8
        rounds &+= 1
      }
      let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes &>> 8) & 0x00FF_00FF_00FF_00FF)
      total &+= Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) &>> 48)
    }
    while index < count {
      if bytes[index] == 0x0A { total += 1 }
      index += 1
    }
    return total
  }
}

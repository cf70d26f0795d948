#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    var cursor = UnsafeRawPointer(bytes)
    var remaining = count
    while remaining > 0, let hit = memchr(cursor, 0x0A, remaining) {
      let hitOffset = UnsafeRawPointer(hit) - UnsafeRawPointer(bytes)
      newlines += 1
      lastNewline = position + hitOffset
      cursor = UnsafeRawPointer(hit) + 1
      remaining = count - hitOffset - 1
    }
    position += count
  }

  /// The 1-based line and byte column of the current ``position``.
  var lineAndColumn: (line: Int, column: Int) { (newlines + 1, position - lastNewline) }
}

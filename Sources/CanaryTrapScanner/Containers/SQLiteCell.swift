import CanaryTrapPrimitives

/// Where one cell of a b-tree page lies (the SQLite file format, "B-tree Pages"): its left child
/// on an interior page, where its payload starts, how much of the payload is on the page and
/// where the cell ends (after the overflow page number, when the payload spills over).
struct SQLiteCell {
  /// The left child's page number, on an interior page.
  var child: Int?
  /// Where the payload starts on the page.
  var payload: Int
  /// The whole payload's size in bytes.
  var payloadSize: Int
  /// How many bytes of the payload are on the page.
  var local: Int
  /// The first overflow page, when the payload does not fit on the page.
  var overflow: Int?
  /// Just past the cell's last byte on the page.
  var end: Int

  /// Parses the cell at `offset` of a page of b-tree `type` with `usable` bytes per page.
  init(_ page: [UInt8], at offset: Int, type: UInt8, usable: Int) throws {
    var cursor = offset
    if type == 0x02 || type == 0x05 {
      guard cursor + 4 <= usable else {
        throw ContainerError.corrupt("a cell is cut short by its page's end")
      }
      child = SQLiteReader.be32(page, cursor)
      cursor += 4
    }
    if type == 0x05 {
      _ = try SQLiteReader.varint(page, &cursor, limit: usable)
      payload = cursor
      payloadSize = 0
      local = 0
      end = cursor
      return
    }
    let size = try SQLiteReader.varint(page, &cursor, limit: usable)
    if type == 0x0D { _ = try SQLiteReader.varint(page, &cursor, limit: usable) }
    guard size >= 0, size <= SQLiteReader.maxRecord else {
      throw ContainerError.overLimit("a record of \(size) bytes is over \(SQLiteReader.maxRecord)")
    }
    payload = cursor
    payloadSize = Int(size)
    local = Self.localSize(payloadSize, table: type == 0x0D, usable: usable)
    guard cursor + local <= usable else {
      throw ContainerError.corrupt("a cell runs past the end of its page")
    }
    end = cursor + local
    if local < payloadSize {
      guard end + 4 <= usable else {
        throw ContainerError.corrupt("a cell's overflow pointer runs past its page")
      }
      overflow = SQLiteReader.be32(page, end)
      end += 4
    }
  }

  /// How many bytes of a payload of `size` bytes stay on the page; the rest goes to overflow pages.
  static func localSize(_ size: Int, table: Bool, usable: Int) -> Int {
    let maxLocal = table ? usable - 35 : (usable - 12) * 64 / 255 - 23
    let minLocal = (usable - 12) * 32 / 255 - 23
    guard size > maxLocal else { return size }
    let k = minLocal + (size - minLocal) % (usable - 4)
    return k <= maxLocal ? k : minLocal
  }
}

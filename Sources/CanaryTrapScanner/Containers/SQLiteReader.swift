import CanaryTrapPrimitives

/// Random access to the bytes of a database or WAL file.
protocol RandomAccessBytes {
  /// The size in bytes.
  var size: Int { get }
  /// Copies `count` bytes at `offset` into `pointer`; throws when they are not all there.
  func read(at offset: Int, count: Int, into pointer: UnsafeMutablePointer<UInt8>) throws
}

/// Bytes held in memory as random-access bytes.
struct InMemoryBytes: RandomAccessBytes {
  let bytes: [UInt8]
  var size: Int { bytes.count }
  func read(at offset: Int, count: Int, into pointer: UnsafeMutablePointer<UInt8>) throws {
    guard offset >= 0, count >= 0, offset + count <= bytes.count else {
      throw ContainerError.truncated(
        "a read of \(count) bytes at \(offset) is past the end (\(bytes.count) bytes)")
    }
    bytes.withUnsafeBufferPointer { pointer.update(from: $0.baseAddress! + offset, count: count) }
  }
}

/// Reads the rows of an SQLite 3 database file (the SQLite file format document): the schema on
/// page 1, then every table's b-tree from its root page (table and WITHOUT ROWID index pages),
/// each row's record decoded with values split across overflow pages put back together. Each
/// row becomes one line of text (values separated by tabs) of a source named `db!/TABLE`.
///
/// Every byte that may still keep a deleted row is handed over as an ``SQLiteLeftover``: the free
/// space of each b-tree page (the gap between cell pointers and cell content, freeblocks and
/// fragments), the freelist's trunk and leaf pages, and pages nothing reaches; a deleted row's
/// bytes are continued by the free overflow page they went on to.
struct SQLiteReader {
  let bytes: any RandomAccessBytes
  let name: String
  /// The largest record put back together (64 MiB); a larger one is over a limit.
  static let maxRecord = 64 << 20

  private(set) var pageSize = 0
  private(set) var usable = 0
  private(set) var pageCount = 0
  /// The text encoding of the header (1 UTF-8, 2 UTF-16LE, 3 UTF-16BE), for the schema's names.
  private(set) var textEncoding = 1
  private(set) var firstFreelistTrunk = 0

  init(bytes: any RandomAccessBytes, name: String) throws {
    self.bytes = bytes
    self.name = name
    var header = [UInt8](repeating: 0, count: 100)
    try header.withUnsafeMutableBufferPointer { try bytes.read(at: 0, count: 100, into: $0.baseAddress!) }
    let raw = Int(header[16]) << 8 | Int(header[17])
    pageSize = raw == 1 ? 65536 : raw
    guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
      throw ContainerError.corrupt("the SQLite header gives page size \(raw)")
    }
    usable = pageSize - Int(header[20])
    guard usable >= 480 else {
      throw ContainerError.corrupt("the SQLite header reserves too many bytes per page")
    }
    guard bytes.size % pageSize == 0 else {
      throw ContainerError.truncated(
        "the database is \(bytes.size) bytes, not a whole number of \(pageSize)-byte pages")
    }
    pageCount = bytes.size / pageSize
    textEncoding = Self.be32(header, 56)
    firstFreelistTrunk = Self.be32(header, 32)
  }

  func page(_ number: Int) throws -> [UInt8] {
    guard number >= 1, number <= pageCount else {
      throw ContainerError.corrupt("a page number \(number) is outside the database's \(pageCount) pages")
    }
    var page = [UInt8](repeating: 0, count: pageSize)
    try page.withUnsafeMutableBufferPointer {
      try bytes.read(at: (number - 1) * pageSize, count: pageSize, into: $0.baseAddress!)
    }
    return page
  }

  /// A name from the schema, decoded in the database's text encoding.
  func text(_ bytes: [UInt8]) -> String {
    guard textEncoding == 2 || textEncoding == 3 else { return String(decoding: bytes, as: UTF8.self) }
    let units = stride(from: 0, to: bytes.count - 1, by: 2).map {
      textEncoding == 2
        ? UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 : UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// Calls `row` for every row of every table, `table` once before each table's rows, and
  /// `leftover` with every byte no live row holds: each b-tree page's free space as its page is
  /// walked, then every page no b-tree reached, in page order. A freelist that loops
  /// or names pages outside the database is an error thrown after everything was read.
  func read(
    table: (String) throws -> Void, row: ([SQLiteValue]) throws -> Void,
    leftover: (SQLiteLeftover) throws -> Void
  ) throws {
    let freelist = try SQLiteFreelist(self, firstTrunk: firstFreelistTrunk)
    let freeLeaves = freelist.leaves
    let trunks = freelist.trunks
    // A bit per page, so memory stays small whatever the page count (no list of pages).
    var visited = SQLitePageSet(pageCount: pageCount)
    // A freed cell's overflow chain went to the freelist's leaves, which SQLite leaves unwritten.
    let overflowPage = { (number: Int) throws -> ArraySlice<UInt8>? in
      guard freeLeaves.contains(number) else { return nil }
      return try self.page(number)[4..<self.usable]
    }
    var tables: [(String, Int)] = []
    try walk(root: 1, visited: &visited, overflowPage: overflowPage, leftover: leftover) { values in
      if values.count >= 4, case .text(let type) = values[0], text(type) == "table",
        case .text(let tableName) = values[1], case .integer(let root) = values[3], root > 0
      {
        tables.append((text(tableName), Int(root)))
      }
    }
    for (tableName, root) in tables {
      try table(tableName)
      try walk(root: root, visited: &visited, overflowPage: overflowPage, leftover: leftover, row: row)
    }
    // An unwritten page (a free leaf, or a page nothing lists) may be an overflow page whose first
    // four bytes name the next page of its chain.
    let chained = { (page: Int) in
      page >= 1 && page <= pageCount && !visited.contains(page) && !trunks.contains(page)
    }
    for number in 1...max(pageCount, 1) where number <= pageCount && !visited.contains(number) {
      let page = try page(number)
      let place: SQLiteLeftover.Place =
        trunks.contains(number) || freeLeaves.contains(number) ? .freePage(number) : .unreachedPage(number)
      let next = Self.be32(page, 0)
      if chained(number), next != number, chained(next) {
        try leftover(
          SQLiteLeftover(
            place: place, page: page, range: 0..<usable, continuation: try self.page(next)[4..<usable]))
        if usable < pageSize {
          try leftover(SQLiteLeftover(place: place, page: page, range: usable..<pageSize))
        }
      } else {
        try leftover(SQLiteLeftover(place: place, page: page, range: 0..<pageSize))
      }
    }
    if let problem = freelist.problem {
      throw ContainerError.corrupt(
        "\(problem); \(freelist.dropped) freelist entries dropped (every page was still scanned)")
    }
  }

  /// Visits the b-tree at `root` depth first, calling `row` with each record in key order and
  /// `leftover` with each page's free space.
  func walk(
    root: Int, visited: inout SQLitePageSet, overflowPage: (Int) throws -> ArraySlice<UInt8>?,
    leftover: (SQLiteLeftover) throws -> Void, row: ([SQLiteValue]) throws -> Void
  ) throws {
    var stack = [root]
    // Depth-first with an explicit stack; children are pushed in reverse to keep key order.
    while let number = stack.popLast() {
      guard !visited.contains(number) else {
        throw ContainerError.corrupt("page \(number) is reached twice (a loop in the b-tree)")
      }
      visited.insert(number)  // a page outside the database is not kept: reading it throws
      let page = try page(number)
      let start = number == 1 ? 100 : 0
      let type = page[start]
      let cellCount = Int(page[start + 3]) << 8 | Int(page[start + 4])
      let interior = type == 0x02 || type == 0x05
      guard [0x02, 0x05, 0x0A, 0x0D].contains(type) else {
        throw ContainerError.corrupt("page \(number) is not a b-tree page (type \(type))")
      }
      let pointers = start + (interior ? 12 : 8)
      guard pointers + 2 * cellCount <= usable else {
        throw ContainerError.corrupt("page \(number) has too many cells")
      }
      var live = [0..<(pointers + 2 * cellCount)]
      var children: [Int] = []
      for index in 0..<cellCount {
        let offset = Int(page[pointers + 2 * index]) << 8 | Int(page[pointers + 2 * index + 1])
        guard offset < usable else {
          throw ContainerError.corrupt("a cell of page \(number) points past the page")
        }
        let cell = try SQLiteCell(page, at: offset, type: type, usable: usable)
        live.append(offset..<cell.end)
        if let child = cell.child { children.append(child) }
        if type == 0x05 { continue }
        let payload = try assemble(page: page, cell: cell, visited: &visited)
        try row(try Self.record(payload))
      }
      for part in try SQLiteLeftover.freeSpace(
        of: page, place: .freeSpace(page: number), btree: start, live: live, usable: usable,
        overflowPage: overflowPage)
      {
        try leftover(part)
      }
      if interior {
        children.append(Self.be32(page, start + 8))
        stack.append(contentsOf: children.reversed())
      }
    }
  }

  /// A cell's whole payload: its bytes on the page, then its overflow chain.
  private func assemble(page: [UInt8], cell: SQLiteCell, visited: inout SQLitePageSet) throws -> [UInt8] {
    var payload = Array(page[cell.payload..<(cell.payload + cell.local)])
    guard var next = cell.overflow else { return payload }
    while payload.count < cell.payloadSize {
      guard next != 0 else { throw ContainerError.corrupt("an overflow chain ends before its record does") }
      guard !visited.contains(next) else { throw ContainerError.corrupt("an overflow chain loops") }
      visited.insert(next)
      let overflow = try self.page(next)
      let take = min(usable - 4, cell.payloadSize - payload.count)
      payload += overflow[4..<(4 + take)]
      next = Self.be32(overflow, 0)
    }
    return payload
  }

  /// The values of a record (header of serial types, then the body).
  static func record(_ payload: [UInt8]) throws -> [SQLiteValue] {
    var cursor = 0
    let headerSize = Int(try varint(payload, &cursor, limit: payload.count))
    guard headerSize >= cursor, headerSize <= payload.count else {
      throw ContainerError.corrupt("a record header runs past its record")
    }
    var types: [Int64] = []
    while cursor < headerSize { types.append(try varint(payload, &cursor, limit: headerSize)) }
    var body = headerSize
    var values: [SQLiteValue] = []
    for type in types {
      let length: Int
      switch type {
      case 0, 8, 9: length = 0
      case 1, 2, 3, 4: length = Int(type)
      case 5: length = 6
      case 6, 7: length = 8
      case 10, 11: throw ContainerError.corrupt("a record uses reserved serial type \(type)")
      default: length = type < 12 ? -1 : Int((type - 12) / 2)
      }
      guard length >= 0, length <= payload.count - body else {
        throw ContainerError.corrupt("a record's values run past it")
      }
      let field = payload[body..<(body + length)]
      switch type {
      case 0: values.append(.null)
      case 8: values.append(.integer(0))
      case 9: values.append(.integer(1))
      case 1...6:
        var value = Int64(Int8(bitPattern: field.first!))
        for byte in field.dropFirst() { value = value << 8 | Int64(byte) }
        values.append(.integer(value))
      case 7:
        var bits: UInt64 = 0
        for byte in field { bits = bits << 8 | UInt64(byte) }
        values.append(.real(Double(bitPattern: bits)))
      default:
        values.append(type % 2 == 0 ? .blob(Array(field)) : .text(Array(field)))
      }
      body += length
    }
    return values
  }

  static func varint(_ bytes: [UInt8], _ cursor: inout Int, limit: Int) throws -> Int64 {
    var value: Int64 = 0
    for index in 0..<9 {
      guard cursor < min(limit, bytes.count) else {
        throw ContainerError.corrupt("a varint runs past its bounds")
      }
      let byte = bytes[cursor]
      cursor += 1
      if index == 8 { return value << 8 | Int64(byte) }
      value = value << 7 | Int64(byte & 0x7F)
      if byte & 0x80 == 0 { return value }
    }
    return value
  }

  static func be32(_ bytes: [UInt8], _ offset: Int) -> Int {
    Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
      | Int(bytes[offset + 3])
  }
}

/// One value of an SQLite record.
enum SQLiteValue: Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text([UInt8])
  case blob([UInt8])

  /// The bytes a row's line shows for it: text and blobs as stored, numbers in decimal.
  var lineBytes: [UInt8] {
    switch self {
    case .null: []
    case .integer(let value): Array(String(value).utf8)
    case .real(let value): Array(String(value).utf8)
    case .text(let bytes), .blob(let bytes): bytes
    }
  }
}

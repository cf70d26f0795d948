/// Reads the frames of an SQLite write-ahead log (`-wal` file): every frame's page image that is a
/// b-tree page gives its rows (values split across overflow pages are put back together from the
/// log's own frames; a chain leaving the log keeps the part on the page), and every other page
/// image that no row used is scanned raw.
struct SQLiteWALReader {
  let bytes: any RandomAccessBytes
  private(set) var pageSize = 0

  init(bytes: any RandomAccessBytes) throws {
    self.bytes = bytes
    guard bytes.size >= 32 else { throw ContainerError.truncated("the WAL header is cut short") }
    var header = [UInt8](repeating: 0, count: 32)
    try header.withUnsafeMutableBufferPointer { try bytes.read(at: 0, count: 32, into: $0.baseAddress!) }
    pageSize = SQLiteReader.be32(header, 8)
    guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
      throw ContainerError.corrupt("the WAL header gives page size \(pageSize)")
    }
  }

  /// Calls `row` with the values of each row of each b-tree page image, and `raw` with every other
  /// page image that no row used; a frame cut short is an error after the whole frames were read.
  func read(row: ([SQLiteValue]) throws -> Void, raw: ([UInt8]) throws -> Void) throws {
    let frameSize = 24 + pageSize
    let frames = (bytes.size - 32) / frameSize
    var latest: [Int: Int] = [:]
    var header = [UInt8](repeating: 0, count: 24)
    for frame in 0..<frames {
      try header.withUnsafeMutableBufferPointer {
        try bytes.read(at: 32 + frame * frameSize, count: 24, into: $0.baseAddress!)
      }
      latest[SQLiteReader.be32(header, 0)] = frame
    }
    let image: (Int) throws -> [UInt8] = { frame in
      var page = [UInt8](repeating: 0, count: self.pageSize)
      try page.withUnsafeMutableBufferPointer {
        try self.bytes.read(at: 32 + frame * frameSize + 24, count: self.pageSize, into: $0.baseAddress!)
      }
      return page
    }
    let walDatabase = WALPages(pageSize: pageSize, latest: latest, image: image)
    var used = Set<Int>()
    var rawFrames: [Int] = []
    // Old versions of a page may share overflow pages: cap what chains put back together.
    var budget = 4 * bytes.size + (64 << 20)
    for frame in 0..<frames {
      try header.withUnsafeMutableBufferPointer {
        try bytes.read(at: 32 + frame * frameSize, count: 24, into: $0.baseAddress!)
      }
      let number = SQLiteReader.be32(header, 0)
      let page = try image(frame)
      let start = number == 1 ? 100 : 0
      guard [0x0A, 0x0D, 0x02].contains(page[start]) else {
        rawFrames.append(frame)
        continue
      }
      do {
        try walDatabase.rows(of: page, start: start, used: &used, budget: &budget, row: row)
      } catch let error as ContainerError where !error.stopsEverything {
        rawFrames.append(frame)  // not a b-tree page after all: its bytes are still scanned
      }
    }
    for frame in rawFrames {
      try header.withUnsafeMutableBufferPointer {
        try bytes.read(at: 32 + frame * frameSize, count: 24, into: $0.baseAddress!)
      }
      if !used.contains(SQLiteReader.be32(header, 0)) { try raw(try image(frame)) }
    }
    if (bytes.size - 32) % frameSize != 0 {
      throw ContainerError.truncated("the WAL ends inside frame \(frames + 1)")
    }
  }
}

/// The pages of a WAL by page number (the latest frame of each), for following overflow chains.
private struct WALPages {
  let pageSize: Int
  let latest: [Int: Int]
  let image: (Int) throws -> [UInt8]

  func rows(
    of page: [UInt8], start: Int, used: inout Set<Int>, budget: inout Int, row: ([SQLiteValue]) throws -> Void
  ) throws {
    let type = page[start]
    let cellCount = Int(page[start + 3]) << 8 | Int(page[start + 4])
    let interior = type == 0x02
    let pointers = start + (interior ? 12 : 8)
    guard pointers + 2 * cellCount <= pageSize else {
      throw ContainerError.corrupt("a page has too many cells")
    }
    let usable = pageSize
    for index in 0..<cellCount {
      var cursor = Int(page[pointers + 2 * index]) << 8 | Int(page[pointers + 2 * index + 1])
      guard cursor < usable else { throw ContainerError.corrupt("a cell points past its page") }
      if interior { cursor += 4 }
      let size = Int(try SQLiteReader.varint(page, &cursor, limit: usable))
      if type == 0x0D { _ = try SQLiteReader.varint(page, &cursor, limit: usable) }
      guard size >= 0, size <= SQLiteReader.maxRecord else {
        throw ContainerError.corrupt("a record size is out of range")
      }
      let maxLocal = type == 0x0D ? usable - 35 : (usable - 12) * 64 / 255 - 23
      let minLocal = (usable - 12) * 32 / 255 - 23
      var local = size
      if size > maxLocal {
        let k = minLocal + (size - minLocal) % (usable - 4)
        local = k <= maxLocal ? k : minLocal
      }
      guard cursor + local <= usable else { throw ContainerError.corrupt("a cell runs past its page") }
      var payload = Array(page[cursor..<(cursor + local)])
      if local < size, cursor + local + 4 <= usable {
        var next = SQLiteReader.be32(page, cursor + local)
        var seen = Set<Int>()
        while payload.count < size, next != 0, seen.insert(next).inserted, let frame = latest[next] {
          used.insert(next)
          let overflow = try image(frame)
          let take = min(usable - 4, size - payload.count)
          budget -= take
          guard budget >= 0 else {
            throw ContainerError.overLimit("the WAL's overflow chains repeat past 4 times its size")
          }
          payload += overflow[4..<(4 + take)]
          next = SQLiteReader.be32(overflow, 0)
        }
      }
      if payload.count == size, let values = try? SQLiteReader.record(payload) {
        try row(values)
      } else {
        try row([.blob(payload)])  // the part of the record in the log
      }
    }
  }
}

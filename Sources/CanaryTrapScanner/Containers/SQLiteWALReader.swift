import CanaryTrapPrimitives

/// Where a WAL frame stands (the SQLite file format, "The WAL File Format"): SQLite reads only the
/// frames up to the last commit whose salts and checksums hold, and of those only the latest of
/// each page; the others still hold the bytes they were written with.
enum WALFrameStatus: String, Equatable {
  /// The latest committed frame of its page.
  case current
  /// A committed frame a later committed frame of the same page replaces.
  case superseded
  /// A frame after the last commit: a transaction that never committed.
  case uncommitted
  /// A frame at or after the first whose salts or checksum do not hold: left from before the log
  /// was restarted, or torn.
  case stale

  /// What a source name adds for the status: nothing for a current frame.
  var suffix: String { self == .current ? "" : ", \(rawValue)" }
}

/// Reads every frame of an SQLite write-ahead log (`-wal` file), current or not: each frame's
/// b-tree page image gives its rows (values split across overflow pages put back together from
/// the frames of the same transaction or earlier; a chain leaving the log keeps the part on the
/// page) and its free space; every other page image that no row used is handed over whole.
struct SQLiteWALReader {
  let bytes: any RandomAccessBytes
  private(set) var pageSize = 0
  private var header = [UInt8](repeating: 0, count: 32)
  /// The most frames read (1,048,576: 4 GiB of 4 KiB pages); a longer log is over a limit.
  static let maxFrames = 1 << 20

  init(bytes: any RandomAccessBytes) throws {
    self.bytes = bytes
    guard bytes.size >= 32 else { throw ContainerError.truncated("the WAL header is cut short") }
    try header.withUnsafeMutableBufferPointer { try bytes.read(at: 0, count: 32, into: $0.baseAddress!) }
    pageSize = SQLiteReader.be32(header, 8)
    guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
      throw ContainerError.corrupt("the WAL header gives page size \(pageSize)")
    }
  }

  private var frameSize: Int { 24 + pageSize }

  fileprivate func frameHeader(_ frame: Int) throws -> [UInt8] {
    var header = [UInt8](repeating: 0, count: 24)
    try header.withUnsafeMutableBufferPointer {
      try bytes.read(at: 32 + frame * frameSize, count: 24, into: $0.baseAddress!)
    }
    return header
  }

  fileprivate func image(_ frame: Int) throws -> [UInt8] {
    var page = [UInt8](repeating: 0, count: pageSize)
    try page.withUnsafeMutableBufferPointer {
      try bytes.read(at: 32 + frame * frameSize + 24, count: pageSize, into: $0.baseAddress!)
    }
    return page
  }

  /// Calls `frame` before the rows of each b-tree frame, `row` with the values of each of its
  /// rows, and `leftover` with each b-tree frame's free space and every other frame's image that
  /// no row used; a frame cut short is an error after the whole frames were read.
  func read(
    frame: (Int, WALFrameStatus) throws -> Void, row: ([SQLiteValue]) throws -> Void,
    leftover: (SQLiteLeftover) throws -> Void
  ) throws {
    let whole = (bytes.size - 32) / frameSize
    // What is kept per frame (its page, status and transaction) is bounded by reading at most
    // `maxFrames` of them.
    let frames = min(whole, Self.maxFrames)
    let log = try WALFrames(reader: self, count: frames)
    var used = Set<Int>()
    var rawFrames: [Int] = []
    // Old versions of a page may share overflow pages: cap what chains put back together.
    var budget = 4 * bytes.size + (64 << 20)
    for index in 0..<frames {
      let page = try image(index)
      let number = log.pages[index]
      let start = number == 1 ? 100 : 0
      guard [0x0A, 0x0D, 0x02].contains(page[start]) else {
        rawFrames.append(index)
        continue
      }
      try frame(index + 1, log.statuses[index])
      let overflowPage = { (number: Int) throws -> ArraySlice<UInt8>? in
        guard let source = log.frame(of: number, for: index), source != index else { return nil }
        let overflow = try self.image(source)
        return WALFrames.isBTreePage(overflow, number: number) ? nil : overflow[4...]
      }
      do {
        let live = try rows(
          of: page, start: start, frame: index, log: log, used: &used, budget: &budget, row: row)
        for part in try SQLiteLeftover.freeSpace(
          of: page, place: .frameFreeSpace(index + 1, log.statuses[index]), btree: start, live: live,
          usable: pageSize, overflowPage: overflowPage)
        {
          try leftover(part)
        }
      } catch let error as ContainerError where !error.stopsEverything {
        rawFrames.append(index)  // not a b-tree page after all: its bytes are still scanned
      }
    }
    for index in rawFrames where !used.contains(index) {
      let page = try image(index)
      let place = SQLiteLeftover.Place.frame(index + 1, log.statuses[index])
      // An overflow page's first four bytes name the next page of its chain.
      var continuation: ArraySlice<UInt8> = []
      if let next = log.frame(of: SQLiteReader.be32(page, 0), for: index), next != index, !used.contains(next)
      {
        let image = try image(next)
        if !WALFrames.isBTreePage(image, number: log.pages[next]) { continuation = image[4...] }
      }
      try leftover(SQLiteLeftover(place: place, page: page, range: 0..<pageSize, continuation: continuation))
    }
    if whole > frames {
      throw ContainerError.overLimit(
        "the WAL holds \(whole) frames, more than \(Self.maxFrames); those after were not read")
    }
    if (bytes.size - 32) % frameSize != 0 {
      throw ContainerError.truncated("the WAL ends inside frame \(frames + 1)")
    }
  }

  /// Calls `row` with the values of each cell of a b-tree page image, and returns the byte ranges
  /// the page uses (its header, cell pointers and cells).
  private func rows(
    of page: [UInt8], start: Int, frame: Int, log: WALFrames, used: inout Set<Int>, budget: inout Int,
    row: ([SQLiteValue]) throws -> Void
  ) throws -> [Range<Int>] {
    let type = page[start]
    let cellCount = Int(page[start + 3]) << 8 | Int(page[start + 4])
    let pointers = start + (type == 0x02 ? 12 : 8)
    guard pointers + 2 * cellCount <= pageSize else {
      throw ContainerError.corrupt("a page has too many cells")
    }
    var live = [0..<(pointers + 2 * cellCount)]
    for index in 0..<cellCount {
      let offset = Int(page[pointers + 2 * index]) << 8 | Int(page[pointers + 2 * index + 1])
      guard offset < pageSize else { throw ContainerError.corrupt("a cell points past its page") }
      let cell: SQLiteCell
      do {
        cell = try SQLiteCell(page, at: offset, type: type, usable: pageSize)
      } catch ContainerError.overLimit(let detail) {
        throw ContainerError.corrupt(detail)  // a page image that only looks like a b-tree page
      }
      live.append(offset..<cell.end)
      var payload = Array(page[cell.payload..<(cell.payload + cell.local)])
      var next = cell.overflow ?? 0
      var seen = Set<Int>()
      while payload.count < cell.payloadSize, next != 0, seen.insert(next).inserted,
        let source = log.frame(of: next, for: frame)
      {
        used.insert(source)
        let overflow = try image(source)
        let take = min(pageSize - 4, cell.payloadSize - payload.count)
        budget -= take
        guard budget >= 0 else {
          throw ContainerError.overLimit("the WAL's overflow chains repeat past 4 times its size")
        }
        payload += overflow[4..<(4 + take)]
        next = SQLiteReader.be32(overflow, 0)
      }
      if payload.count == cell.payloadSize, let values = try? SQLiteReader.record(payload) {
        try row(values)
      } else {
        try row([.blob(payload)])  // the part of the record in the log
      }
    }
    return live
  }

  /// The salts and checksum of the WAL header, read in the byte order its magic number names.
  fileprivate var bigEndianChecksums: Bool { header[3] & 1 == 1 }
  fileprivate var salts: ArraySlice<UInt8> { header[16..<24] }
  fileprivate var headerChecksumHolds: Bool {
    let (first, second) = WALFrames.checksum(header[0..<24], bigEndian: bigEndianChecksums, 0, 0)
    return UInt32(SQLiteReader.be32(header, 24)) == first && UInt32(SQLiteReader.be32(header, 28)) == second
  }
  fileprivate var headerChecksum: (UInt32, UInt32) {
    (UInt32(SQLiteReader.be32(header, 24)), UInt32(SQLiteReader.be32(header, 28)))
  }
}

/// The frames of a WAL: each one's page number and status, and which frame holds a page as a
/// transaction saw it.
private struct WALFrames {
  private(set) var pages: [Int] = []
  private(set) var statuses: [WALFrameStatus] = []
  /// The frames of each page, in log order.
  private var framesOfPage: [Int: [Int]] = [:]
  /// For each frame, the last frame of its transaction (the next commit frame, or the last frame).
  private var transactionEnds: [Int] = []

  init(reader: SQLiteWALReader, count: Int) throws {
    var valid = reader.headerChecksumHolds
    var (first, second) = reader.headerChecksum
    var lastCommit = -1
    var validFrames = 0
    var commits: [Bool] = []
    for index in 0..<count {
      let header = try reader.frameHeader(index)
      let number = SQLiteReader.be32(header, 0)
      pages.append(number)
      framesOfPage[number, default: []].append(index)
      let commit = SQLiteReader.be32(header, 4) != 0
      commits.append(commit)
      if valid {
        (first, second) = Self.checksum(header[0..<8], bigEndian: reader.bigEndianChecksums, first, second)
        let page = try reader.image(index)
        (first, second) = Self.checksum(page[...], bigEndian: reader.bigEndianChecksums, first, second)
        valid =
          header[8..<16].elementsEqual(reader.salts) && UInt32(SQLiteReader.be32(header, 16)) == first
          && UInt32(SQLiteReader.be32(header, 20)) == second
      }
      if valid {
        validFrames = index + 1
        if commit { lastCommit = index }
      }
    }
    var latest: [Int: Int] = [:]
    for index in 0...max(lastCommit, 0) where lastCommit >= 0 { latest[pages[index]] = index }
    statuses = (0..<count).map { index in
      if index >= validFrames { return .stale }
      if index > lastCommit { return .uncommitted }
      return latest[pages[index]] == index ? .current : .superseded
    }
    var end = count - 1
    transactionEnds = Array(repeating: 0, count: count)
    for index in stride(from: count - 1, through: 0, by: -1) {
      if commits[index] { end = index }
      transactionEnds[index] = end
    }
  }

  /// The frame that holds page `number` as the transaction of frame `frame` left it: the latest
  /// frame of that page up to the transaction's end, or nil when the page is not in the log.
  func frame(of number: Int, for frame: Int) -> Int? {
    guard let frames = framesOfPage[number] else { return nil }
    let end = transactionEnds[frame]
    // The frames are in log order: the last one up to `end` by binary search.
    var low = 0
    var high = frames.count
    while low < high {
      let middle = (low + high) / 2
      if frames[middle] <= end { low = middle + 1 } else { high = middle }
    }
    return low > 0 ? frames[low - 1] : nil
  }

  /// Whether `page` (page `number` of the database) starts with a b-tree page header.
  static func isBTreePage(_ page: [UInt8], number: Int) -> Bool {
    [0x02, 0x05, 0x0A, 0x0D].contains(page[number == 1 ? 100 : 0])
  }

  /// The WAL checksum of `bytes` (a multiple of 8 bytes) continued from `first` and `second`.
  static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, _ first: UInt32, _ second: UInt32)
    -> (UInt32, UInt32)
  {
    var (first, second) = (first, second)
    bytes.withUnsafeBufferPointer { buffer in
      var index = 0
      while index + 8 <= buffer.count {
        first = first &+ word(buffer, index, bigEndian) &+ second
        second = second &+ word(buffer, index + 4, bigEndian) &+ first
        index += 8
      }
    }
    return (first, second)
  }

  private static func word(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int, _ bigEndian: Bool) -> UInt32 {
    let bytes = (
      UInt32(buffer[index]), UInt32(buffer[index + 1]), UInt32(buffer[index + 2]), UInt32(buffer[index + 3])
    )
    return bigEndian
      ? bytes.0 << 24 | bytes.1 << 16 | bytes.2 << 8 | bytes.3
      : bytes.3 << 24 | bytes.2 << 16 | bytes.1 << 8 | bytes.0
  }
}

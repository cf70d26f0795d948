/// Bytes of a database or WAL file that no live row holds but that may still keep a deleted one
/// (SQLite leaves a deleted row's bytes in place unless `secure_delete` is on), and where they lie.
struct SQLiteLeftover {
  /// Where the bytes lie; its description is the last part of the findings' source name.
  enum Place: Equatable, CustomStringConvertible {
    /// A page on the freelist (a trunk or a leaf).
    case freePage(Int)
    /// A page no b-tree reaches and the freelist does not list.
    case unreachedPage(Int)
    /// The bytes of a live b-tree page outside its header, cell pointers and live cells.
    case freeSpace(page: Int)
    /// A WAL frame's page image that is not a b-tree page, or the rows of a frame no longer current.
    case frame(Int, WALFrameStatus)
    /// The bytes of a WAL frame's b-tree page image outside its header, cell pointers and live cells.
    case frameFreeSpace(Int, WALFrameStatus)

    var description: String {
      switch self {
      case .freePage(let number): "free page \(number)"
      case .unreachedPage(let number): "unreached page \(number)"
      case .freeSpace(let number): "free space of page \(number)"
      case .frame(let number, let status): "frame \(number)\(status.suffix)"
      case .frameFreeSpace(let number, let status): "free space of frame \(number)\(status.suffix)"
      }
    }
  }

  var place: Place
  /// The page image, with every byte a live cell holds zeroed (its newlines kept, so lines are
  /// numbered as on the page).
  var image: [UInt8]
  /// The part of ``image`` to scan; findings are located by their offset in the page.
  var range: Range<Int>
  /// The start of the overflow page that the end of ``range`` continues into, scanned right after
  /// it so that a value split across the two is found; a finding that starts in it is left to that
  /// page's own scan.
  var continuation: ArraySlice<UInt8> = []
  /// How many bytes of ``range`` are not zeroed.
  var freeBytes: Int

  /// Whether the bytes can hold nothing: only zeros and newlines, with no continuation.
  var isBlank: Bool {
    continuation.isEmpty && !image[range].contains { $0 != 0 && $0 != 0x0A }
  }

  /// The whole of a page no live cell uses.
  init(place: Place, page: [UInt8], range: Range<Int>, continuation: ArraySlice<UInt8> = []) {
    self.place = place
    image = page
    self.range = range
    self.continuation = continuation
    freeBytes = range.count
  }

  init(place: Place, image: [UInt8], range: Range<Int>, continuation: ArraySlice<UInt8>, freeBytes: Int) {
    self.place = place
    self.image = image
    self.range = range
    self.continuation = continuation
    self.freeBytes = freeBytes
  }

  /// The leftovers of a live b-tree page: its free space (the gap between the cell pointers and
  /// the cell content, the freeblocks and fragments between cells) as one leftover with the live
  /// bytes zeroed, and, where a freed cell's last four bytes name a page that `overflowPage`
  /// returns (a free page its overflow chain may have gone to), the freed bytes before that
  /// pointer as a leftover of their own continued by that page.
  ///
  /// `live` are the byte ranges of the page in use (the database header on page 1, the b-tree
  /// header, the cell pointers and each live cell); `btree` is where the b-tree header starts.
  static func freeSpace(
    of page: [UInt8], place: Place, btree: Int, live: [Range<Int>], usable: Int,
    overflowPage: (Int) throws -> ArraySlice<UInt8>?
  ) rethrows -> [SQLiteLeftover] {
    var image = page
    for range in live {
      for index in range.clamped(to: 0..<usable) where image[index] != 0x0A { image[index] = 0 }
    }
    let runs = freeRuns(live: live, usable: usable)
    guard !runs.isEmpty else { return [] }
    let blockEnds = freeblockEnds(page, btree: btree, usable: usable)
    var leftovers: [SQLiteLeftover] = []
    var spanImage = image
    var freeBytes = runs.reduce(0) { $0 + $1.count }
    for run in runs {
      var pointers = Set(blockEnds.filter { $0 - 4 >= run.lowerBound && $0 <= run.upperBound }.map { $0 - 4 })
      if run.count >= 4 { pointers.insert(run.upperBound - 4) }
      var segmentStart = run.lowerBound
      for pointer in pointers.sorted() where pointer > segmentStart {
        guard let next = try overflowPage(SQLiteReader.be32(page, pointer)) else { continue }
        leftovers.append(
          SQLiteLeftover(
            place: place, image: image, range: segmentStart..<pointer, continuation: next,
            freeBytes: pointer - segmentStart))
        for index in segmentStart..<pointer where spanImage[index] != 0x0A { spanImage[index] = 0 }
        freeBytes -= pointer - segmentStart
        segmentStart = pointer + 4
      }
    }
    let span = runs.first!.lowerBound..<runs.last!.upperBound
    leftovers.insert(
      SQLiteLeftover(place: place, image: spanImage, range: span, continuation: [], freeBytes: freeBytes),
      at: 0)
    return leftovers
  }

  /// The ranges of `0..<usable` outside every range of `live`, in order.
  static func freeRuns(live: [Range<Int>], usable: Int) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var cursor = 0
    for range in live.map({ $0.clamped(to: 0..<usable) }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if range.lowerBound > cursor { runs.append(cursor..<range.lowerBound) }
      cursor = max(cursor, range.upperBound)
    }
    if cursor < usable { runs.append(cursor..<usable) }
    return runs
  }

  /// Where each freeblock of the page's chain ends; the chain is followed only while it goes
  /// forward within the page (as SQLite keeps it), so a hostile chain cannot loop.
  static func freeblockEnds(_ page: [UInt8], btree: Int, usable: Int) -> [Int] {
    var ends: [Int] = []
    var block = Int(page[btree + 1]) << 8 | Int(page[btree + 2])
    var floor = btree
    while block > floor, block + 4 <= usable {
      let size = Int(page[block + 2]) << 8 | Int(page[block + 3])
      guard size >= 4, block + size <= usable else { break }
      ends.append(block + size)
      floor = block + size - 1
      block = Int(page[block]) << 8 | Int(page[block + 1])
    }
    return ends
  }
}

/// Scans one SQLite database or WAL file: its live rows one line each, under `db!/TABLE` (or `db-wal!`
/// for the current frames of a log), and every byte that may still keep a deleted row under a
/// name saying where it lies (`db!/(free page 7)`, `db!/(free space of page 3)`,
/// `db-wal!/(frame 3, superseded)`), located by its offset in that page.
final class SQLiteScan {
  private let scanner: LeakScanner
  private let name: String
  private(set) var findings: [LeakFinding] = []
  private(set) var omitted: [OmittedFindings] = []
  private(set) var bytesScanned = 0
  private var rows: ScanStream?
  private static let tab: [UInt8] = [0x09]
  private static let newline: [UInt8] = [0x0A]

  init(scanner: LeakScanner, name: String) {
    self.scanner = scanner
    self.name = name
  }

  /// Scans a database file: a source per table, one line per row, then what no row holds.
  func scanDatabase(_ bytes: any RandomAccessBytes) throws {
    defer { finishRows() }
    try SQLiteReader(bytes: bytes, name: name).read(
      table: { table in
        finishRows()
        rows = scanner.makeStream(source: ContainerScanner.memberName(name, table))
      },
      row: feed, leftover: scan)
  }

  /// Scans a WAL file: the rows of its current frames under `db-wal!`, the rows of every other
  /// frame under the frame's own name, then what no row holds.
  func scanWAL(_ bytes: any RandomAccessBytes) throws {
    let current = scanner.makeStream(source: name + "!")
    rows = current
    defer {
      if rows !== current { finishRows() }
      rows = current
      finishRows()
    }
    try SQLiteWALReader(bytes: bytes).read(
      frame: { number, status in
        if status == .current {
          if rows !== current {
            finishRows()
            rows = current
          }
        } else {
          if rows !== current { finishRows() }
          rows = scanner.makeStream(
            source: ContainerScanner.memberName(name, "(\(SQLiteLeftover.Place.frame(number, status)))"))
        }
      },
      row: feed, leftover: scan)
  }

  private func feed(_ values: [SQLiteValue]) {
    guard let rows else { return }
    for (index, value) in values.enumerated() {
      if index > 0 { rows.feed(Self.tab) }
      rows.feed(value.lineBytes)
    }
    rows.feed(Self.newline)
  }

  /// Scans one leftover as its own source, offsets and lines counted from the start of its page;
  /// bytes that can hold nothing (zeros and newlines) are counted without a stream.
  private func scan(_ leftover: SQLiteLeftover) {
    bytesScanned += leftover.freeBytes
    guard !leftover.isBlank else { return }
    var start = LineCounter()
    leftover.image.withUnsafeBufferPointer {
      start.advance(over: $0.baseAddress!, count: leftover.range.lowerBound)
    }
    let stream = ScanStream(
      matcher: scanner.matcher, canaries: scanner.canaries,
      source: ContainerScanner.memberName(name, "(\(leftover.place))"), options: scanner.options,
      chunkSize: leftover.image.count, startingAt: start)
    stream.feed(leftover.image[leftover.range])
    stream.feed(leftover.continuation.prefix(scanner.matcher.maxLength))
    // A match starting in the continuation lies wholly in the next page, which is scanned itself.
    findings += stream.finish().filter { $0.offset < leftover.range.upperBound }
    omitted += stream.omittedFindings
  }

  private func finishRows() {
    if let rows { finish(rows) }
    rows = nil
  }

  private func finish(_ stream: ScanStream) {
    bytesScanned += stream.bytesScanned
    findings += stream.finish()
    omitted += stream.omittedFindings
  }
}

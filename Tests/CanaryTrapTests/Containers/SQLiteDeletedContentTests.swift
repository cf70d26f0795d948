import Foundation
import Testing

@testable import CanaryTrap

/// Deleted rows in databases and WAL files made by the real sqlite3: with `secure_delete` off
/// their bytes stay in free space, free pages and old frames, and each is found there, named
/// after where it lies and located by its offset in that page; with `secure_delete` on the same
/// steps leave nothing and the scan is clean. A hostile freelist is bounded and reported.
@Suite struct SQLiteDeletedContentTests {
  static let canary = ContainerFixtures.canary.value
  /// A text value of `count` copies of `letter` (sqlite3's printf pads a character).
  static func repeated(_ letter: Character, _ count: Int) -> String {
    "printf('%.*c', \(count), '\(letter)')"
  }

  /// Runs the sqlite3 command-line tool on `database` with `commands` (SQL or dot-commands).
  private func sqlite(_ files: ContainerFixtures, _ database: String, _ commands: String...) throws -> Bool {
    try files.run("sqlite3", [database] + commands)
  }

  private func rawSources(_ result: (findings: [LeakFinding], source: ScannedSource)) -> [String] {
    result.findings.filter { $0.encoding == "raw" }.map(\.source)
  }

  /// Whether the canary's first bytes are at the finding's offset of the page its source names
  /// (`db!/(free page 7)`, `db!/(free space of page 2)`): its first 8, or as many as the page
  /// holds (a freed cell's part of a value ends before its overflow page number).
  private func locates(_ finding: LeakFinding, in files: ContainerFixtures, file: String) throws -> Bool {
    let data = try Data(contentsOf: files.url(file))
    let pageSize = Int(data[16]) << 8 | Int(data[17])
    guard let number = finding.source.split(separator: " ").last.flatMap({ Int($0.dropLast()) }) else {
      return false
    }
    let start = (number - 1) * pageSize + finding.offset
    let end = min(start + 8, number * pageSize)
    return data[start..<end].elementsEqual(Self.canary.utf8.prefix(end - start))
  }

  @Test(arguments: [false, true])
  func aDeletedRowIsFoundInItsPagesFreeSpace(secureDelete: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard
      try sqlite(
        files, "app.db", "PRAGMA secure_delete=\(secureDelete ? "ON" : "OFF")",
        "CREATE TABLE requests (id INTEGER PRIMARY KEY, url TEXT)",
        "INSERT INTO requests (url) VALUES ('/v1/a'), ('/v1/me?token=\(Self.canary)'), ('/v1/b')",
        "DELETE FROM requests WHERE id = 2")
    else { return }
    let result = files.scan("app.db")
    #expect(result.source.status == .heard, "\(result.source)")
    #expect(rawSources(result) == (secureDelete ? [] : ["app.db!/(free space of page 2)"]))
    for finding in result.findings where finding.encoding == "raw" {
      #expect(try locates(finding, in: files, file: "app.db"), "\(finding)")
    }
  }

  @Test(arguments: [false, true])
  func aDeletedRowsOverflowPagesAndADroppedTableAreFreePages(secureDelete: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let rows = (1...120).map { "('row \($0) \(Self.canary)')" }.joined(separator: ", ")
    guard
      try sqlite(
        files, "app.db", "PRAGMA secure_delete=\(secureDelete ? "ON" : "OFF")",
        "CREATE TABLE requests (id INTEGER PRIMARY KEY, body TEXT)",
        "CREATE TABLE sessions (token TEXT)",
        "INSERT INTO requests (body) VALUES ('kept')",
        "INSERT INTO requests (body) VALUES (\(Self.repeated("a", 6000)) || '\(Self.canary)' || \(Self.repeated("b", 6000)))",
        "INSERT INTO sessions VALUES \(rows)",
        "DELETE FROM requests WHERE id = 2", "DROP TABLE sessions")
    else { return }
    let result = files.scan("app.db")
    #expect(result.source.status == .heard, "\(result.source)")
    let sources = Set(rawSources(result))
    if secureDelete {
      #expect(sources.isEmpty, "\(sources)")
    } else {
      #expect(!sources.isEmpty && sources.allSatisfy { $0.hasPrefix("app.db!/(free page ") }, "\(sources)")
      // The big value's overflow page and the 120 rows of the dropped table.
      #expect(result.findings.filter { $0.encoding == "raw" }.count >= 121)
    }
    for finding in result.findings where finding.encoding == "raw" {
      #expect(try locates(finding, in: files, file: "app.db"), "\(finding)")
    }
  }

  /// A table leaf payload of 4,681 bytes (a 4-byte record header and a 4,677-byte text) keeps
  /// 589 bytes on its page, so text byte 585 starts the first overflow page; one of 8,773 bytes
  /// (a 5-byte header, 8,768 bytes of text) keeps 584, so text byte 4,676 starts the second.
  @Test func aValueSplitBetweenAFreedCellAndItsFreedOverflowPagesIsFoundWhole() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let acrossLocalEnd =
      "\(Self.repeated("a", 575)) || '\(Self.canary)' || \(Self.repeated("b", 4677 - 575 - 24))"
    let acrossOverflow =
      "\(Self.repeated("c", 4666)) || '\(Self.canary)' || \(Self.repeated("d", 8768 - 4666 - 24))"
    guard
      try sqlite(
        files, "app.db", "PRAGMA secure_delete=OFF",
        "CREATE TABLE requests (id INTEGER PRIMARY KEY, body TEXT)",
        "INSERT INTO requests (body) VALUES ('kept'), (\(acrossLocalEnd)), (\(acrossOverflow)), ('kept')",
        // A freed page starts the freelist as its trunk, so the overflow pages freed next are leaves,
        // which SQLite does not write.
        "CREATE TABLE scratch (x)", "DROP TABLE scratch", "DELETE FROM requests WHERE id IN (2, 3)")
    else { return }
    let result = files.scan("app.db")
    #expect(result.source.status == .heard, "\(result.source)")
    let raw = result.findings.filter { $0.encoding == "raw" }
    #expect(raw.map(\.source).first == "app.db!/(free space of page 2)", "\(raw)")
    #expect(raw.count == 2 && raw[1].source.hasPrefix("app.db!/(free page "), "\(raw)")
    for finding in raw {
      #expect(finding.excerpt.contains(Self.canary))
      #expect(try locates(finding, in: files, file: "app.db"), "\(finding)")
    }
  }

  @Test(arguments: ["UTF-16le", "UTF-16be"])
  func aUTF16DatabaseIsReadByTableWithItsDeletedRows(encoding: String) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard
      try sqlite(
        files, "app.db", "PRAGMA encoding='\(encoding)'", "PRAGMA secure_delete=OFF",
        "CREATE TABLE requests (id INTEGER PRIMARY KEY, url TEXT)",
        "INSERT INTO requests (url) VALUES ('/v1/me?token=\(Self.canary)'), ('/v1/gone?token=\(Self.canary)')",
        "DELETE FROM requests WHERE id = 2")
    else { return }
    let result = files.scan("app.db")
    #expect(result.source.status == .heard, "\(result.source)")
    // Text is stored UTF-16 (big-endian text before a zero byte also reads as little-endian).
    let found = result.findings.filter { $0.encoding.hasPrefix("utf16") }.map(\.source)
    #expect(found.sorted() == ["app.db!/(free space of page 2)", "app.db!/requests"], "\(result.findings)")
  }

  // MARK: - WAL

  /// Makes `app.db` in WAL mode with `commands`, then copies its log to `copy.db-wal` before
  /// sqlite3 closes it (which would check the log into the database and delete it).
  private func walDatabase(_ files: ContainerFixtures, secureDelete: Bool = false, _ commands: [String])
    throws
    -> Bool
  {
    try files.run(
      "sqlite3",
      [
        "app.db", "PRAGMA secure_delete=\(secureDelete ? "ON" : "OFF")", "PRAGMA journal_mode=WAL",
        "PRAGMA wal_autocheckpoint=0", "CREATE TABLE requests (id INTEGER PRIMARY KEY, url TEXT)",
      ] + commands + [".shell cp app.db-wal copy.db-wal"])
  }

  @Test(arguments: [false, true])
  func aRowDeletedInTheTransactionThatWroteItIsFoundInTheFramesFreeSpace(secureDelete: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard
      try walDatabase(
        files, secureDelete: secureDelete,
        [
          "INSERT INTO requests (url) VALUES ('/v1/a')", "BEGIN",
          "INSERT INTO requests (url) VALUES ('/v1/me?token=\(Self.canary)'), ('/v1/b')",
          "DELETE FROM requests WHERE url LIKE '/v1/me%'", "COMMIT",
        ])
    else { return }
    let result = files.scan("copy.db-wal")
    #expect(result.source.status == .heard, "\(result.source)")
    let sources = rawSources(result)
    if secureDelete {
      #expect(sources.isEmpty, "\(sources)")
    } else {
      #expect(sources.count == 1 && sources[0].hasPrefix("copy.db-wal!/(free space of frame "), "\(sources)")
    }
  }

  @Test func anUpdatedValuesOldOverflowPageIsFoundInItsSupersededFrames() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard
      try walDatabase(
        files,
        [
          "INSERT INTO requests (url) VALUES ('/v1/a'), (\(Self.repeated("a", 5000)) || '\(Self.canary)' || \(Self.repeated("b", 3000)))",
          "UPDATE requests SET url = \(Self.repeated("z", 8100)) WHERE id = 2",
        ])
    else { return }
    let result = files.scan("copy.db-wal")
    #expect(result.source.status == .heard, "\(result.source)")
    let sources = Set(rawSources(result))
    #expect(
      sources.contains { $0.hasPrefix("copy.db-wal!/(frame ") && $0.hasSuffix(", superseded)") }, "\(sources)"
    )
    #expect(!sources.contains("copy.db-wal!"), "the current frames hold only the new value: \(sources)")
  }

  @Test func framesLeftFromBeforeTheLogRestartedAreStale() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard
      try walDatabase(
        files,
        [
          "INSERT INTO requests (url) VALUES ('/v1/me?token=\(Self.canary)')",
          "INSERT INTO requests (url) VALUES ('/v1/a')", "DELETE FROM requests WHERE id = 1",
          "PRAGMA wal_checkpoint(RESTART)", "INSERT INTO requests (url) VALUES ('/v1/b')",
        ])
    else { return }
    let result = files.scan("copy.db-wal")
    #expect(result.source.status == .heard, "\(result.source)")
    let sources = rawSources(result)
    #expect(!sources.isEmpty && sources.allSatisfy { $0.hasSuffix(", stale)") }, "\(sources)")
  }

  // MARK: - A hostile freelist

  /// A database whose dropped table left a freelist: a trunk page and leaves holding the canary.
  private func databaseWithFreelist(_ files: ContainerFixtures) throws -> Data? {
    let rows = (1...200).map { "('row \($0) \(Self.canary)')" }.joined(separator: ", ")
    guard
      try sqlite(
        files, "app.db", "PRAGMA secure_delete=OFF", "CREATE TABLE sessions (token TEXT)",
        "INSERT INTO sessions VALUES \(rows)", "CREATE TABLE kept (x)", "DROP TABLE sessions")
    else { return nil }
    return try Data(contentsOf: files.url("app.db"))
  }

  @Test(arguments: [
    ("a trunk that names itself as the next trunk", "trunk pointer names page"),
    ("a leaf outside the database", "outside the database"),
    ("a leaf count past what fits", "more than fit"),
    ("a first trunk outside the database", "outside the database"),
  ])
  func aHostileFreelistIsBoundedCountedAndReported(damage: String, reason: String) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard var data = try databaseWithFreelist(files) else { return }
    let pageSize = Int(data[16]) << 8 | Int(data[17])
    let trunk = Int(data[32]) << 24 | Int(data[33]) << 16 | Int(data[34]) << 8 | Int(data[35])
    #expect(trunk > 0)
    let base = (trunk - 1) * pageSize
    func put(_ value: UInt32, at offset: Int) {
      for index in 0..<4 { data[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
    switch damage {
    case "a trunk that names itself as the next trunk": put(UInt32(trunk), at: base)
    case "a leaf outside the database": put(0x7FFF_FFFF, at: base + 8)
    case "a leaf count past what fits": put(0xFFFF_FFFF, at: base + 4)
    default: put(0x7FFF_FFFF, at: 32)
    }
    try files.write("hostile.db", data)
    let result = files.scan("hostile.db")
    let failure = try #require(result.source.status.failureReason, "\(result.source)")
    #expect(
      failure.contains("freelist") && failure.contains(reason) && failure.contains("dropped"), "\(failure)")
    // Every page was still scanned: the dropped table's rows are found where they lie.
    #expect(result.findings.filter { $0.encoding == "raw" }.count >= 200)
  }
}

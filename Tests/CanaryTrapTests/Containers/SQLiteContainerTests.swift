import Foundation
import Testing

@testable import CanaryTrap

/// SQLite databases and WAL files made by the real sqlite3 (through python's sqlite3 module, which
/// links the system library): values found by table and row, in text and blob cells and split
/// across overflow pages; clean twins clean; corrupt and truncated files failed.
@Suite struct SQLiteContainerTests {
  private func rawFindings(_ result: (findings: [LeakFinding], source: ScannedSource)) -> [String] {
    result.findings.filter { $0.encoding == "raw" }.map { "\($0.source):\($0.line)" }
  }

  private func makeDatabase(_ files: ContainerFixtures, leak: Bool, wal: Bool = false) throws -> Bool {
    let value = leak ? ContainerFixtures.canary.value : "redacted-value-000000000"
    let script = """
      import sqlite3
      db = sqlite3.connect('app.db')
      \(wal ? "db.execute('pragma journal_mode=wal'); db.execute('pragma wal_autocheckpoint=0')" : "")
      db.execute('create table requests (id integer primary key, url text, body blob)')
      db.execute('create table notes (note text)')
      for i in range(40): db.execute('insert into requests (url, body) values (?, ?)', ('/v1/item/%d' % i, b'x' * 50))
      db.execute('insert into requests (url, body) values (?, ?)', ('/v1/me?token=\(value)', b'bin'))
      db.execute('insert into requests (url, body) values (?, ?)', ('/v1/upload', b'A' * 9000 + b'\(value)' + b'B' * 9000))
      db.execute('insert into notes values (?)', ('y' * 5000 + '\(value)',))
      db.commit()
      \(wal ? "import shutil; shutil.copy('app.db-wal', 'copy.db-wal')" : "")
      db.close()
      """
    return try files.python(script)
  }

  @Test(arguments: [false, true])
  func aCanaryInTextBlobAndOverflowCellsIsFoundByTableAndRow(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try makeDatabase(files, leak: leak) else { return }
    let result = files.scan("app.db")
    #expect(result.source.status == .heard, "\(result.source)")
    #expect(
      rawFindings(result)
        == (leak ? ["app.db!/requests:41", "app.db!/requests:42", "app.db!/notes:1"] : []))
  }

  @Test(arguments: [false, true])
  func aWALFileIsReadFrameByFrame(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try makeDatabase(files, leak: leak, wal: true) else { return }
    let result = files.scan("copy.db-wal")
    #expect(result.source.status == .heard, "\(result.source)")
    let found = Set(result.findings.filter { $0.encoding == "raw" }.map(\.source))
    #expect(found == (leak ? ["copy.db-wal!"] : []))
    if leak { #expect(result.findings.filter { $0.encoding == "raw" }.count >= 3) }
  }

  @Test func corruptAndTruncatedDatabasesFail() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try makeDatabase(files, leak: false) else { return }
    let data = try Data(contentsOf: files.url("app.db"))
    try files.write("truncated.db", data.prefix(data.count - 100))
    var corrupt = data
    // Page 2's b-tree header: an impossible page type.
    corrupt[4096] = 0x7F
    try files.write("corrupt.db", corrupt)
    #expect(files.scan("truncated.db").source.status.failureReason?.contains("truncated") == true)
    #expect(files.scan("corrupt.db").source.status.failureReason?.contains("corrupt") == true)
  }

  @Test func aDatabaseInsideAZipIsRead() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try makeDatabase(files, leak: true) else { return }
    guard
      try files.python(
        "import zipfile\nzipfile.ZipFile('backup.zip','w',zipfile.ZIP_DEFLATED).write('app.db')")
    else { return }
    let result = files.scan("backup.zip")
    #expect(result.source.status == .heard, "\(result.source)")
    #expect(rawFindings(result).contains("backup.zip!/app.db!/notes:1"))
  }
}

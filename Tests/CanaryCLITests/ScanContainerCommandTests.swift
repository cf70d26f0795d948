import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// `canary scan` reads containers: findings name the path through them, a clean archive exits 0,
/// a damaged one exits 2 naming what is wrong.
@Suite struct ScanContainerCommandTests {
  private func make(_ workspace: ScanCommandTests.Workspace, leak: Bool) throws -> Bool {
    try workspace.write(
      "in/net/app.log", "line one\nGET /me X-Session: \(leak ? ScanCommandTests.token.value : "none")\n")
    try workspace.write("in/ui.log", "nothing here\n")
    guard ExternalTools.require("tar", for: "this container test") != nil else { return false }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "cd '\(workspace.root.path)' && tar -czf logs.tgz -C in net ui.log"]
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return process.terminationStatus == 0
  }

  func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO(input: Data())
    let status = await CommandLineTool.run(["scan"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  @Test func aLeakInATarGzIsNamedByItsPathThroughTheArchive() async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    guard try make(workspace, leak: true) else { return }
    let archive = workspace.root.appendingPathComponent("logs.tgz").path
    let result = await run(["--manifest", workspace.manifest, "--format", "json", archive])
    #expect(result.status == ExitStatus.leaks)
    #expect(result.output.contains("\(archive)!/net/app.log"))
    #expect(!result.output.contains("/tmp/canary"))
  }

  @Test func theCleanArchiveExitsZero() async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    guard try make(workspace, leak: false) else { return }
    let result = await run([
      "--manifest", workspace.manifest, workspace.root.appendingPathComponent("logs.tgz").path,
    ])
    #expect(result.status == ExitStatus.success, "\(result.error)")
  }

  @Test func aTruncatedArchiveExitsTwoNamingTheProblem() async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    guard try make(workspace, leak: false) else { return }
    let url = workspace.root.appendingPathComponent("logs.tgz")
    let data = try Data(contentsOf: url)
    try data.prefix(data.count / 2).write(to: url)
    let result = await run(["--manifest", workspace.manifest, url.path])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("logs.tgz: truncated"), "\(result.error)")
  }

  /// Runs sqlite3 in the workspace: a database whose deleted row (and, in WAL mode, its log)
  /// keeps the token unless `secure_delete` is on.
  private func makeDatabase(_ workspace: ScanCommandTests.Workspace, secureDelete: Bool) throws -> Bool {
    guard let sqlite = ExternalTools.require("sqlite3", for: "this container test") else { return false }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: sqlite)
    process.currentDirectoryURL = workspace.root
    let token = ScanCommandTests.token.value
    process.arguments = [
      "app.db", "PRAGMA secure_delete=\(secureDelete ? "ON" : "OFF")",
      "CREATE TABLE requests (id INTEGER PRIMARY KEY, url TEXT)",
      "INSERT INTO requests (url) VALUES ('/a'), ('/me?token=\(token)'), ('/b')",
      "DELETE FROM requests WHERE id = 2",
      // The log: a row written and deleted by one transaction, so no frame holds it live.
      "ATTACH 'wal.db' AS wal", "PRAGMA wal.journal_mode=WAL", "PRAGMA wal.wal_autocheckpoint=0",
      "CREATE TABLE wal.requests (id INTEGER PRIMARY KEY, url TEXT)", "BEGIN",
      "INSERT INTO wal.requests (url) VALUES ('/a'), ('/me?token=\(token)'), ('/b')",
      "DELETE FROM wal.requests WHERE id = 2", "COMMIT", ".shell cp wal.db-wal copy.db-wal",
    ]
    process.standardOutput = FileHandle.nullDevice
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return process.terminationStatus == 0
  }

  @Test(arguments: [false, true])
  func aDeletedRowInADatabaseAndInItsLogIsFoundWhereItLies(secureDelete: Bool) async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    guard try makeDatabase(workspace, secureDelete: secureDelete) else { return }
    let database = workspace.root.appendingPathComponent("app.db").path
    let log = workspace.root.appendingPathComponent("copy.db-wal").path
    let result = await run(["--manifest", workspace.manifest, "--format", "json", database, log])
    if secureDelete {
      #expect(result.status == ExitStatus.success, "\(result.output)\(result.error)")
    } else {
      #expect(result.status == ExitStatus.leaks, "\(result.error)")
      #expect(result.output.contains("\(database)!/(free space of page 2)"), "\(result.output)")
      #expect(result.output.contains("\(log)!/(free space of frame "), "\(result.output)")
    }
  }
}

import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// A container is read within `--max-bytes` and its limits (issue 37): read that far, the scan is
/// inconclusive (exit 3), never clean, and a container stopped by a `ContainerLimits` limit is
/// inconclusive too (exit 3, as documented), not an unreadable input (2). Each has a twin whose
/// canary before the cut is still found (exit 1).
@Suite struct ScanContainerBoundsTests {
  /// Runs `tool` with `arguments` in `workspace`; nil after recording that the test did not run.
  private func run(_ tool: String, _ arguments: [String], in workspace: ScanCommandTests.Workspace) throws
    -> Bool?
  {
    guard let path = ExternalTools.require(tool, for: "this container-bounds test") else { return nil }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = workspace.root
    process.standardOutput = FileHandle.nullDevice
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
    return process.terminationStatus == 0
  }

  private func scan(_ arguments: [String], input: Data = Data()) async -> (
    status: Int32, output: String, error: String
  ) {
    let captured = CapturedIO(input: input)
    let status = await CommandLineTool.run(["scan"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  private static func line(_ leak: Bool) -> String {
    "GET /me X-Session: \(leak ? ScanCommandTests.token.value : "none")\n"
  }

  @Test(arguments: [false, true])
  func aTarPastMaxBytesIsReadThatFarAndIsInconclusive(leak: Bool) async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    try workspace.write("app.log", Self.line(leak) + String(repeating: "line of the log\n", count: 20_000))
    guard try run("tar", ["-cf", "logs.tar", "app.log"], in: workspace) == true else { return }
    let archive = workspace.root.appendingPathComponent("logs.tar").path
    let result = await scan(["--manifest", workspace.manifest, "--max-bytes", "64K", archive])
    #expect(result.status == (leak ? ExitStatus.leaks : ExitStatus.inconclusive), "\(result.error)")
    #expect(result.error.contains("stopped after 65536 bytes (--max-bytes)"), "\(result.error)")
  }

  @Test(arguments: [false, true])
  func aSparseDatabasePastMaxBytesIsReadThatFarAndIsInconclusive(leak: Bool) async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    let value = leak ? ScanCommandTests.token.value : "none"
    guard
      try run(
        "sqlite3",
        [
          "app.db", "CREATE TABLE requests (id INTEGER PRIMARY KEY, url TEXT)",
          "INSERT INTO requests (url) VALUES ('/me?token=\(value)')",
        ], in: workspace) == true
    else { return }
    // A file of 256 MiB that holds almost nothing (a hole): read whole before, it is cut now.
    let url = workspace.root.appendingPathComponent("app.db")
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 256 << 20)
    try handle.close()
    let result = await scan(["--manifest", workspace.manifest, "--max-bytes", "1M", url.path])
    #expect(result.status == (leak ? ExitStatus.leaks : ExitStatus.inconclusive), "\(result.error)")
    #expect(result.error.contains("stopped after 1048576 bytes (--max-bytes)"), "\(result.error)")
  }

  @Test(arguments: [false, true])
  func aContainerStoppedByALimitIsInconclusiveNotUnreadable(leak: Bool) async throws {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    // gzip of gzip of 256 MiB of zeros: past the 64 MiB floor at well over 2,000 times its size.
    let head = Self.line(leak)
    guard
      try run(
        "python3",
        [
          "-c",
          """
          import gzip, io
          inner = io.BytesIO()
          with gzip.GzipFile(fileobj=inner, mode='wb', compresslevel=9) as f:
              f.write(b'\(head.replacingOccurrences(of: "\n", with: "\\n"))')
              for _ in range(256):
                  f.write(bytes(1 << 20))
          with gzip.open('bomb.gz.gz', 'wb') as f:
              f.write(inner.getvalue())
          """,
        ], in: workspace) == true
    else { return }
    let result = await scan([
      "--manifest", workspace.manifest, workspace.root.appendingPathComponent("bomb.gz.gz").path,
    ])
    #expect(result.status == (leak ? ExitStatus.leaks : ExitStatus.inconclusive), "\(result.error)")
    #expect(result.error.contains("stopped at a container limit: "), "\(result.error)")
    #expect(result.error.contains("ContainerLimits.maxExpansionRatio"), "\(result.error)")
    // The same bomb piped to standard input: the same verdict.
    let bytes = try Data(contentsOf: workspace.root.appendingPathComponent("bomb.gz.gz"))
    let piped = await scan(["--manifest", workspace.manifest, "-"], input: bytes)
    #expect(piped.status == (leak ? ExitStatus.leaks : ExitStatus.inconclusive), "\(piped.error)")
    #expect(piped.error.contains("stopped at a container limit: "), "\(piped.error)")
  }
}

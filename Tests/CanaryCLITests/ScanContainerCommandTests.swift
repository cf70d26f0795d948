import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary scan` reads containers: findings name the path through them, a clean archive exits 0,
/// a damaged one exits 2 naming what is wrong.
@Suite struct ScanContainerCommandTests {
  private func make(_ workspace: ScanCommandTests.Workspace, leak: Bool) throws -> Bool {
    try workspace.write(
      "in/net/app.log", "line one\nGET /me X-Session: \(leak ? ScanCommandTests.token.value : "none")\n")
    try workspace.write("in/ui.log", "nothing here\n")
    guard
      FileManager.default.isExecutableFile(atPath: "/usr/bin/tar")
        || FileManager.default.isExecutableFile(atPath: "/bin/tar")
    else {
      Issue.record("tar is not installed; this container test did not run")
      return false
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "cd '\(workspace.root.path)' && tar -czf logs.tgz -C in net ui.log"]
    try process.run()
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
}

import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// `canary scan -` opens what is piped in by its content, like a file: a gzip or tar piped in is
/// read through, and a format it does not open fails (exit 2) instead of being scanned raw as clean.
@Suite struct ScanStandardInputContainerTests {
  /// `text` piped through `command` (a shell command reading standard input), or `nil` after
  /// recording that the test did not run without the tool.
  private func piped(_ text: String, through command: String, tool: String) throws -> Data? {
    guard ExternalTools.require(tool, for: "this standard-input test") != nil else { return nil }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try ChildProcessLaunch.run(process)
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return data
  }

  private func scan(_ input: Data) async throws -> (status: Int32, output: String, error: String) {
    let workspace = try ScanCommandTests.Workspace()
    defer { workspace.remove() }
    let captured = CapturedIO(input: input, chunkSize: 4096)
    let status = await CommandLineTool.run(
      ["scan", "--manifest", workspace.manifest, "--format", "json", "-"], io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  @Test(arguments: [false, true])
  func aGzipPipedInIsOpened(leak: Bool) async throws {
    let text = "line one\nGET /me X-Session: \(leak ? ScanCommandTests.token.value : "none")\n"
    guard let gzip = try piped(text, through: "gzip -c", tool: "gzip") else { return }
    let result = try await scan(gzip)
    #expect(result.status == (leak ? ExitStatus.leaks : ExitStatus.success), "\(result.error)")
    #expect(result.output.contains("\"-!\"") == leak)
  }

  @Test func anXzPipedInFailsNamingTheCommand() async throws {
    let text = "GET /me X-Session: none\n"
    guard let xz = try piped(text, through: "xz -c", tool: "xz") else { return }
    let result = try await scan(xz)
    #expect(result.status == 2)
    #expect(result.error.contains("xz-compressed content is not opened"), "\(result.error)")
  }

  /// The twin: the same text piped in plain is clean, exit 0.
  @Test func plainTextPipedInIsScannedAsBefore() async throws {
    let result = try await scan(Data("GET /me X-Session: none\n".utf8))
    #expect(result.status == ExitStatus.success)
    let leak = try await scan(Data("GET /me X-Session: \(ScanCommandTests.token.value)\n".utf8))
    #expect(leak.status == ExitStatus.leaks)
  }
}

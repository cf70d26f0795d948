import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A command whose output cannot be written (a full disk, a closed pipe) exits 2 and says so,
/// whatever else it did; `serve` finds out before it serves.
@Suite struct OutputWriteErrorTests {
  /// Streams whose standard output always fails as `/dev/full` does; standard error is kept.
  static func failingOutput(_ errors: Locked<String>) -> CommandIO {
    CommandIO(
      writeOutput: { _ in }, writeError: { text in errors.withLock { $0 += text } },
      readInputChunk: { Data() },
      writeOutputData: { _ in throw CommandIOError("cannot write standard output: No space left on device") })
  }

  @Test func everyCommandExitsTwoWhenItsStandardOutputFails() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let openAPI = try workspace.write("openapi.json", KindsCommandTests.openAPI)
    let commands: [[String]] = [
      ["patterns", "-m", workspace.manifest],
      ["report", "merge", workspace.reports],
      ["manifest"],
      ["manifest", "--check", workspace.manifest],
      ["baseline", "-m", workspace.manifest, workspace.log],
      ["scan", "-m", workspace.manifest, workspace.log],
      ["init", "--list"],
      ["kinds", "--openapi", openAPI],
      ["--version"],
      ["--help"],
      ["help", "scan"],
      ["scan", "--help"],
      ["report", "--help"],
    ]
    for words in commands {
      let errors = Locked("")
      let status = await CommandLineTool.run(words, io: Self.failingOutput(errors))
      #expect(status == ExitStatus.usage, "canary \(words.joined(separator: " ")) exited \(status)")
      #expect(
        errors.current.contains("cannot write standard output: No space left on device"),
        "canary \(words.joined(separator: " ")): \(errors.current)")
      #expect(
        errors.current.components(separatedBy: "No space left").count == 2,
        "said once: \(errors.current)")
    }
  }

  #if os(Linux) || os(macOS)
    @Test(arguments: [["patterns", "-m", "manifest.json"], ["report", "merge", "reports"]])
    func aFullDeviceOrAClosedPipeOnStandardOutputExitsTwo(_ words: [String]) throws {
      let workspace = try ScanWorkspace()
      defer { workspace.remove() }
      _ = workspace.reports
      let line = words.joined(separator: " ")
      let full = try CanaryProcess.run("\"$CANARY\" \(line) > /dev/full", in: workspace.root)
      #expect(full.status == ExitStatus.usage, "\(line) > /dev/full: \(full.error)")
      #expect(full.error.contains("cannot write standard output: No space left on device"), "\(full.error)")
      #expect(!full.crashed)

      let closed = try Self.runWithClosedPipe(words, in: workspace.root)
      #expect(closed.status == ExitStatus.usage, "\(line) | (closed): \(closed.error)")
      #expect(closed.error.contains("cannot write standard output: Broken pipe"), "\(closed.error)")
      // Twin: the same command into a file succeeds.
      let file = try CanaryProcess.run("\"$CANARY\" \(line) > out.txt", in: workspace.root)
      #expect(file.status == ExitStatus.success, "\(file.error)")
    }

    /// Runs the built `canary` with its standard output a pipe nobody reads.
    static func runWithClosedPipe(_ arguments: [String], in directory: URL) throws -> (
      status: Int32, error: String
    ) {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      close(ends[0])
      let executable = try #require(CanaryExecutableLookup.shared.url)
      let process = TestProcess()
      process.executableURL = executable
      process.arguments = arguments
      process.currentDirectoryURL = directory
      let errorFile = directory.appendingPathComponent("closed-pipe-stderr.txt")
      _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
      process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
      process.standardError = try FileHandle(forWritingTo: errorFile)
      try ChildProcessLaunch.run(process)
      process.waitUntilExit()
      return (process.terminationStatus, (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }
  #endif

  @Test func serveFailsAtStartWhenItsRecordCannotBeWritten() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let full = workspace.deviceNode(like: "/dev/full", named: "full")
    let stopWaited = Locked(false)
    let captured = CapturedIO()
    let status = await ServeCommand.run(
      ["-m", workspace.manifest, "--record", full], io: captured.io,
      until: { stopWaited.withLock { $0 = true } })
    #expect(status == ExitStatus.usage)
    #expect(!stopWaited.current, "canary serve served before it found the record cannot be written")
    #expect(
      captured.standardError.contains("cannot write the record \(full): No space left on device"),
      "\(captured.standardError)")
    #expect(captured.standardOutput.isEmpty, "no base URL is printed for a server that is not serving")
    #expect(fileType(full) == S_IFCHR)
    // Twin: the same command with a record it can write serves until stopped.
    let record = workspace.path("record.jsonl")
    let served = await ServeCommand.run(
      ["-m", workspace.manifest, "--record", record], io: CapturedIO().io,
      until: { stopWaited.withLock { $0 = true } })
    #expect(served == ExitStatus.success)
    #expect(stopWaited.current)
  }

  @Test func serveFailsAtStartWhenStandardOutputCannotBeWritten() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let stopWaited = Locked(false)
    let errors = Locked("")
    let status = await ServeCommand.run(
      ["-m", workspace.manifest], io: Self.failingOutput(errors), until: { stopWaited.withLock { $0 = true } }
    )
    #expect(status == ExitStatus.usage)
    #expect(!stopWaited.current, "canary serve served with no way to print its base URL")
    #expect(
      errors.current.contains("cannot write standard output: No space left on device"), "\(errors.current)")
  }
}

import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--output` never destroys what it replaces: devices are written in place, inputs and
/// directories are refused, and a replaced file keeps its mode.
@Suite struct ScanOutputTests {
  let leak = "X-Session: \(ScanWorkspace.canary.value)\n"

  @Test func devNullStaysADevice() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    let result = await workspace.scan(["--manifest", workspace.manifest, "--output", "/dev/null", log])
    #expect(result.status == ExitStatus.leaks)
    var info = stat()
    #expect(stat("/dev/null", &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFCHR)
    let output = try ScanOutput(ScanPath("/dev/null"))
    #expect(output.mode == .inPlace)
  }

  @Test func anOutputThatIsAnInputIsRefusedAndTheInputKept() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    let result = await workspace.scan(["--manifest", workspace.manifest, "--output", log, log])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("it is also an input"))
    #expect(try String(contentsOfFile: log, encoding: .utf8) == leak)
    // Inside a directory PATH, and through a link, too.
    try FileManager.default.createSymbolicLink(atPath: workspace.path("link.log"), withDestinationPath: log)
    let viaDirectory = await workspace.scan([
      "--manifest", workspace.manifest, "--output", workspace.path("link.log"), workspace.root.path,
    ])
    #expect(viaDirectory.status == ExitStatus.usage)
    #expect(try String(contentsOfFile: log, encoding: .utf8) == leak)
  }

  @Test func aReplacedFileKeepsItsModeAndGetsTheReport() async throws {
    // Twin of the refusals: an ordinary output file is written, with the leak in it.
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    let report = try workspace.write("report.json", "old")
    #expect(chmod(report, 0o640) == 0)
    let result = await workspace.scan([
      "--manifest", workspace.manifest, "--format", "json", "--output", report, log,
    ])
    #expect(result.status == ExitStatus.leaks)
    var info = stat()
    #expect(stat(report, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o640)
    #expect(try String(contentsOfFile: report, encoding: .utf8).contains(ScanWorkspace.canary.value))
    // No temporary file is left beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: workspace.root.path).sorted() == [
        "app.log", "manifest.json", "report.json",
      ])
  }

  @Test func aLinkToTheOutputStaysALink() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    let target = try workspace.write("real.txt", "old")
    let link = workspace.path("link.txt")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = await workspace.scan(["--manifest", workspace.manifest, "--output", link, log])
    #expect(result.status == ExitStatus.leaks)
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains("LEAKY"))
  }

  @Test func aDirectoryOutputSaysSo() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    let result = await workspace.scan([
      "--manifest", workspace.manifest, "--output", workspace.root.path, log,
    ])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("it is a directory"))
    #expect(!result.error.contains("512"))
  }

  @Test func aMissingOutputDirectoryNamesTheReason() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    let result = await workspace.scan([
      "--manifest", workspace.manifest, "--output", workspace.path("no/such/dir/report.txt"), log,
    ])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("No such file or directory"))
  }
}

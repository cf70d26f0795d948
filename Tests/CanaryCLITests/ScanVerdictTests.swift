import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary scan` earns its 0: an empty manifest is bad input (2), and an input with nothing to
/// look at is inconclusive (3), never clean; each check has a twin that still finds a leak.
@Suite struct ScanVerdictTests {
  let leakLine = "GET /a X-Session: \(ScanWorkspace.canary.value)\n"

  @Test func aManifestWithoutCanariesIsBadInput() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    try workspace.write("empty.json", #"{"version": 1, "canaries": []}"#)
    let log = try workspace.write("app.log", leakLine)
    let result = await workspace.scan(["--manifest", workspace.path("empty.json"), log])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("holds no canary"))
    #expect(result.output.isEmpty)
    // Twin: the same log with a real manifest is a leak.
    #expect(await workspace.scan(["--manifest", workspace.manifest, log]).status == ExitStatus.leaks)
  }

  @Test func anEmptyFileIsInconclusiveNeverClean() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let empty = try workspace.write("empty.log", "")
    let result = await workspace.scan(["--manifest", workspace.manifest, "--format", "json", empty])
    #expect(result.status == ExitStatus.inconclusive)
    #expect(ExitStatus.inconclusive != ExitStatus.success)
    #expect(result.output.contains(#""verdict" : "inconclusive""#))
    #expect(result.output.contains("0 bytes: nothing was looked at"))
    // Twin: a file with the canary in it is a leak, and one with other text is clean.
    let leaky = try workspace.write("leaky.log", leakLine)
    #expect(await workspace.scan(["--manifest", workspace.manifest, leaky]).status == ExitStatus.leaks)
    let clean = try workspace.write("clean.log", "GET /a 200\n")
    #expect(await workspace.scan(["--manifest", workspace.manifest, clean]).status == ExitStatus.success)
  }

  @Test func emptyStandardInputIsInconclusive() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let result = await workspace.scan(["--manifest", workspace.manifest, "-"])
    #expect(result.status == ExitStatus.inconclusive)
    #expect(result.output.contains("INCONCLUSIVE"))
    let twin = await workspace.scan(["--manifest", workspace.manifest, "-"], input: Data(leakLine.utf8))
    #expect(twin.status == ExitStatus.leaks)
  }

  @Test func aDirectoryOfEmptyFilesIsInconclusive() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    try workspace.write("logs/a.log", "")
    try workspace.write("logs/deeper/b.log", "")
    let result = await workspace.scan(["--manifest", workspace.manifest, workspace.path("logs")])
    #expect(result.status == ExitStatus.inconclusive)
    #expect(result.output.contains("every file under"))
    // One file with bytes makes the directory looked at; empty files beside it are fine.
    try workspace.write("logs/c.log", "GET /a 200\n")
    #expect(await workspace.scan(["--manifest", workspace.manifest, workspace.path("logs")]).status == 0)
    // Twin: a leak in it is found.
    try workspace.write("logs/deeper/d.log", leakLine)
    let leaky = await workspace.scan(["--manifest", workspace.manifest, workspace.path("logs")])
    #expect(leaky.status == ExitStatus.leaks)
  }

  @Test func aLeakBeatsAnUnreadablePathWhichBeatsAnEmptyOne() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let empty = try workspace.write("empty.log", "")
    let missing = workspace.path("missing.log")
    let leaky = try workspace.write("leaky.log", leakLine)
    let manifest = ["--manifest", workspace.manifest]
    #expect(await workspace.scan(manifest + [empty, missing]).status == ExitStatus.usage)
    #expect(await workspace.scan(manifest + [empty, missing, leaky]).status == ExitStatus.leaks)
  }

  @Test func everyExitStatusIsDocumentedInTheHelp() async {
    let help = ScanCommand.help
    for line in ["0  clean", "1  at least one canary", "2  error", "3  inconclusive"] {
      #expect(help.contains(line), "\(line)")
    }
    #expect(help.contains("--max-findings"))
  }
}

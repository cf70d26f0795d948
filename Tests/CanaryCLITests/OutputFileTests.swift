import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every command that writes a named file (`scan -o`, `baseline -o`, `manifest -o`,
/// `report merge -o`, `serve --record`) goes through ``OutputFile``: devices are written in
/// place, an existing file needs `--force`, an input of the command is never overwritten, and a
/// replaced file keeps its mode and links.
@Suite struct OutputFileTests {
  @Test(arguments: OutputWriter.all)
  func aDeviceIsWrittenInPlaceWithOrWithoutForce(_ writer: OutputWriter) async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let null = workspace.deviceNode(like: "/dev/null", named: "null")
    for extra in [[], ["--force"]] {
      let result = await writer.run(workspace, output: null, extra)
      #expect(result.status != ExitStatus.usage, "\(writer) \(extra): \(result.error)")
      #expect(fileType(null) == S_IFCHR, "\(writer) \(extra) replaced the device with a file")
    }
  }

  @Test(arguments: OutputWriter.all)
  func aFullDeviceIsAnError(_ writer: OutputWriter) async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let full = workspace.deviceNode(like: "/dev/full", named: "full")
    let result = await writer.run(workspace, output: full, ["--force"])
    #expect(result.status == ExitStatus.usage, "\(writer): \(result.error)")
    #expect(result.error.contains("No space left on device"), "\(writer): \(result.error)")
    #expect(fileType(full) == S_IFCHR, "\(writer) replaced the device with a file")
  }

  @Test(arguments: OutputWriter.all)
  func anExistingFileNeedsForce(_ writer: OutputWriter) async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let existing = try workspace.write("existing.txt", "mine")
    let refused = await writer.run(workspace, output: existing)
    #expect(refused.status == ExitStatus.usage, "\(writer)")
    #expect(
      refused.error.contains("refusing \(writer.option) \(existing): it exists; pass --force to replace it"),
      "\(writer): \(refused.error)")
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine", "\(writer)")
    // Twin: with --force the same file is written.
    let forced = await writer.run(workspace, output: existing, ["--force"])
    #expect(forced.status != ExitStatus.usage, "\(writer): \(forced.error)")
    #expect(try String(contentsOfFile: existing, encoding: .utf8) != "mine", "\(writer)")
  }

  /// The inputs each writer reads, as paths in the workspace.
  static func inputs(of writer: OutputWriter, in workspace: ScanWorkspace) -> [String] {
    switch writer.description {
    case "scan", "baseline": [workspace.manifest, workspace.log]
    case "report merge": [workspace.reports + "/a.sarif"]
    case "serve": [workspace.manifest]
    default: []
    }
  }

  @Test(arguments: OutputWriter.all)
  func anInputIsNeverOverwrittenEvenThroughALinkOrWithForce(_ writer: OutputWriter) async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    for (index, input) in Self.inputs(of: writer, in: workspace).enumerated() {
      let before = try Data(contentsOf: URL(fileURLWithPath: input))
      let symbolic = workspace.path("symbolic-\(index)")
      let hard = workspace.path("hard-\(index)")
      try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: input)
      #expect(link(input, hard) == 0)
      for output in [input, symbolic, hard] {
        let result = await writer.run(workspace, output: output, ["--force"])
        #expect(result.status == ExitStatus.usage, "\(writer) -o \(output)")
        #expect(result.error.contains("it is also an input of this command"), "\(writer): \(result.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "\(writer) overwrote \(input)")
      }
    }
  }

  @Test func scanNeverOverwritesItsBaselineOrStandardInputFile() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let baseline = workspace.path("baseline.json")
    #expect(
      await workspace.run(["baseline", "-m", workspace.manifest, "-o", baseline, workspace.log]).status == 0)
    let before = try String(contentsOfFile: baseline, encoding: .utf8)
    let result = await workspace.run([
      "scan", "-m", workspace.manifest, "--baseline", baseline, "-o", baseline, "--force", workspace.log,
    ])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("refusing --output \(baseline): it is also an input of this command"))
    #expect(try String(contentsOfFile: baseline, encoding: .utf8) == before)
    // Twin: a different output file is written.
    let other = workspace.path("report.txt")
    let written = await workspace.run([
      "scan", "-m", workspace.manifest, "--baseline", baseline, "-o", other, workspace.log,
    ])
    #expect(written.status == ExitStatus.success, "\(written.error)")
    #expect(FileManager.default.fileExists(atPath: other))
  }

  @Test func aReplacedFileKeepsItsModeAndItsLinkAndLeavesNoTemporaryFile() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = workspace.log
    let report = try workspace.write("report.json", "old")
    #expect(chmod(report, 0o640) == 0)
    let link = workspace.path("link.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: report)
    let result = await workspace.run([
      "scan", "--manifest", workspace.manifest, "--format", "json", "--output", link, "--force", log,
    ])
    #expect(result.status == ExitStatus.leaks, "\(result.error)")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == report)
    var info = stat()
    #expect(stat(report, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o640)
    #expect(try String(contentsOfFile: report, encoding: .utf8).contains(ScanWorkspace.canary.value))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: workspace.root.path).sorted() == [
        "app.log", "link.json", "manifest.json", "report.json",
      ])
  }

  @Test func anOutputThatCannotBeAFileSaysWhy() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: workspace.path("dangling"), withDestinationPath: workspace.path("nowhere"))
    _ = try workspace.write("plain.txt", "x")
    let cases: [(String, String)] = [
      (workspace.root.path, "it is a directory; name a file"),
      (
        workspace.path("no/such/dir/report.txt"),
        "its directory \(workspace.path("no/such/dir")) cannot be used"
      ),
      (workspace.path("plain.txt/report.txt"), "Not a directory"),
      (workspace.root.path + "/newdir/", "it names a directory that does not exist"),
      (workspace.path("dangling"), "it is a symbolic link to nothing"),
      ("", "--output needs a file name"),
    ]
    for writer in [OutputWriter.scan, .baseline, .manifest, .reportMerge] {
      for (output, message) in cases {
        let result = await writer.run(workspace, output: output, ["--force"])
        #expect(result.status == ExitStatus.usage, "\(writer) -o \(output)")
        #expect(result.error.contains(message), "\(writer) -o \(output): \(result.error)")
      }
    }
    #expect(fileType(workspace.path("nowhere")) == 0)
    #expect(fileType(workspace.path("newdir")) == 0)
  }

  @Test func aSocketIsRefused() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let path = workspace.path("socket")
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    let result = await OutputWriter.manifest.run(workspace, output: path, ["--force"])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("it is a socket; name a file"))
    #expect(fileType(path) == S_IFSOCK)
  }

  @Test func initGoesThroughTheSameChecks() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let kind = TemplateCatalog.kinds[0]
    let file = workspace.path(kind.fileName(xctest: false))
    try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
    let directory = await workspace.run(["init", kind.name, "-o", workspace.root.path, "--force"])
    #expect(directory.status == ExitStatus.usage)
    #expect(directory.error.contains("it is a directory; name a file"), "\(directory.error)")
    let notAFolder = await workspace.run(["init", kind.name, "-o", workspace.manifest])
    #expect(notAFolder.status == ExitStatus.usage)
    #expect(notAFolder.error.contains("it is not a directory; name the test folder"), "\(notAFolder.error)")
    // Twin: a fresh folder is created and the template written.
    let fresh = await workspace.run(["init", kind.name, "-o", workspace.path("Tests/App")])
    #expect(fresh.status == ExitStatus.success, "\(fresh.error)")
    #expect(fileType(workspace.path("Tests/App/\(kind.fileName(xctest: false))")) == S_IFREG)
  }
}

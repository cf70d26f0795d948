import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

@Suite struct ReportCommandTests {
  @Test func mergeWritesOneFileAndRefusesToReplaceIt() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-report-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let report = LeakReport(title: "T", canaries: [])
    try report.rendered(as: .sarif).write(to: directory.appendingPathComponent("a.sarif"))
    try report.rendered(as: .sarif).write(to: directory.appendingPathComponent("b.sarif"))
    let output = directory.appendingPathComponent("merged.json").path

    let captured = CapturedIO()
    let status = await ReportCommand.run(
      ["merge", directory.path, "-o", output, "--category", "canarytrap-linux"], io: captured.io)
    #expect(status == ExitStatus.success, "\(captured.standardError)")
    let text = try String(contentsOfFile: output, encoding: .utf8)
    #expect(text.contains("\"id\" : \"canarytrap-linux/\""))

    let again = CapturedIO()
    #expect(
      await ReportCommand.run(["merge", directory.path, "-o", output], io: again.io) == ExitStatus.usage)
    #expect(again.standardError.contains("exists; pass --force"))
  }

  @Test func badUsageNamesTheProblem() async {
    let empty = CapturedIO()
    #expect(await ReportCommand.run(["merge", "/nonexistent-canary-dir"], io: empty.io) == ExitStatus.usage)
    #expect(empty.standardError.contains("cannot read the folder /nonexistent-canary-dir"))
    let unknown = CapturedIO()
    #expect(await ReportCommand.run(["split"], io: unknown.io) == ExitStatus.usage)
    #expect(unknown.standardError.contains("canary report: unknown subcommand 'split'"))
  }
}

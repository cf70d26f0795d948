import CanaryTrap
import Foundation

/// `canary report merge`: one SARIF file for code scanning from a folder of per-test reports.
enum ReportCommand {
  static let merge = CommandSpec(
    name: "merge", abstract: "Merge per-test SARIF reports into one for code scanning.",
    discussion: """
      Merges every .sarif file in DIR (the folder CANARY_TRAP_REPORT_DIR names) into one SARIF log \
      with one run, automationDetails.id NAME/, and every result, as GitHub code scanning requires \
      (one run per category). Writes it to FILE, or to standard output.
      """,
    options: [
      .value(
        "--output", short: "o", placeholder: "FILE",
        help: "Where to write the merged log (refuses to replace a file without --force)."),
      .value(
        "--category", placeholder: "NAME", help: "The code scanning category.", defaultValue: "canarytrap"),
      .flag("--force", help: "Replace FILE if it exists."),
    ],
    arguments: [CommandArgument("DIR", help: "The folder of .sarif files.")],
    run: { parsed, io in execute(parsed, io: io) })

  static let command = CommandSpec(
    name: "report", abstract: "Combine reports: merge per-test SARIF files into one for code scanning.",
    subcommands: [merge])

  /// Runs `canary report` with `arguments` (after the word `report`).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(command, arguments, commandName: "canary report", io: io)
  }

  static func execute(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    let directory = parsed.positionals[0]
    let output = parsed.value("--output")
    let category = parsed.value("--category") ?? "canarytrap"
    let force = parsed.flag("--force")
    guard !category.isEmpty, !category.contains("/") else {
      io.writeError("canary report merge: --category '\(category)' must be non-empty without '/'\n")
      return ExitStatus.usage
    }
    let data: Data
    do {
      data = try SARIFMerge.merge(directory: URL(fileURLWithPath: directory), category: category)
    } catch {
      io.writeError("canary report merge: \(error)\n")
      return ExitStatus.usage
    }
    guard let output else {
      io.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
      return ExitStatus.success
    }
    if FileManager.default.fileExists(atPath: output), !force {
      io.writeError("canary report merge: \(output) exists; pass --force to replace it\n")
      return ExitStatus.usage
    }
    do {
      try data.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
      io.writeError("canary report merge: cannot write \(output): \(error.localizedDescription)\n")
      return ExitStatus.usage
    }
    io.writeOutput("wrote \(output)\n")
    return ExitStatus.success
  }
}

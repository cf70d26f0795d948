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
      .value(
        "--baseline", short: "b", placeholder: "BASELINE",
        help:
          "The baseline the tests used (Configuration.knownLeaks): each of its entries that no report"
          + " matched becomes a result with baselineState absent."),
    ],
    arguments: [CommandArgument("DIR", help: "The folder of .sarif files.")],
    run: { parsed, io in execute(parsed, io: io) })

  static let stale = CommandSpec(
    name: "stale", abstract: "List the baseline entries that a whole test run never matched.",
    discussion: """
      Each test judges its leaks against Configuration.knownLeaks on its own, so one test cannot \
      tell whether an entry it did not match is stale: another test may match it. This reads \
      every .sarif report in DIR (the folder CANARY_TRAP_REPORT_DIR named for the run) and lists \
      the entries of FILE that no report's findings matched: leaks that are fixed, or whose test \
      did not run. Remove them so that the leak cannot come back unnoticed.
      """,
    options: [
      .value(
        "--baseline", short: "b", placeholder: "FILE",
        help: "The baseline file the tests read into Configuration.knownLeaks (required).")
    ],
    arguments: [CommandArgument("DIR", help: "The folder of .sarif reports of one test run.")],
    epilogue: """
      EXIT STATUS
        0  every entry of the baseline matched a finding in some report.
        1  at least one entry matched nothing (listed on standard output).
        2  error: bad usage, an unreadable baseline or report, or no report in DIR was judged
           against a baseline (nothing to compare).
      """,
    run: { parsed, io in executeStale(parsed, io: io) })

  static let command = CommandSpec(
    name: "report",
    abstract: "Merge per-test SARIF reports into one; list stale baseline entries.",
    subcommands: [merge, stale])

  /// The baseline `--baseline` names, or nil after reporting why it cannot be read.
  private static func baseline(_ parsed: ParsedCommand, command: String, io: CommandIO) -> [KnownLeak]?? {
    guard let path = parsed.path("--baseline") else { return .some(nil) }
    do {
      return .some(try LeakBaseline(contentsOfPath: path.bytes).knownLeaks)
    } catch {
      io.writeError("\(command): \(error)\n")
      return nil
    }
  }

  static func executeStale(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    let name = "canary report stale"
    guard parsed.value("--baseline") != nil else {
      return CommandRunner.fail("missing --baseline FILE", name, io)
    }
    guard let read = baseline(parsed, command: name, io: io), let entries = read else {
      return ExitStatus.usage
    }
    let directory = parsed.positionals[0]
    let check: SARIFMerge.BaselineCheck
    do {
      check = try SARIFMerge.check(directory: URL(fileURLWithPath: directory), baseline: entries)
    } catch {
      io.writeError("\(name): \(error)\n")
      return ExitStatus.usage
    }
    guard check.reportsUsingBaseline > 0 else {
      io.writeError(
        "\(name): none of the \(check.reports) reports in \(directory) was judged against a baseline,"
          + " so nothing tells which entries matched; set Configuration.knownLeaks in the tests\n")
      return ExitStatus.usage
    }
    if check.entryCounts != [entries.count] {
      io.writeError(
        "\(name): warning: the reports used baselines of \(check.entryCounts.sorted().map(String.init).joined(separator: ", "))"
          + " entries; this one has \(entries.count)\n")
    }
    var lines = check.stale.map { entry in
      "stale baseline entry (\(entry.baselineKey)): no report matched it"
        + (entry.reason.map { "; accepted because: \($0)" } ?? "")
    }
    lines.append(
      "\(check.stale.count) of \(entries.count) baseline entries matched nothing in \(check.reports) reports"
        + " (\(check.reportsUsingBaseline) judged against a baseline)")
    io.writeOutput(lines.joined(separator: "\n") + "\n")
    return check.stale.isEmpty ? ExitStatus.success : ExitStatus.leaks
  }

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
    guard let entries = baseline(parsed, command: "canary report merge", io: io) else {
      return ExitStatus.usage
    }
    let data: Data
    do {
      data = try SARIFMerge.merge(
        directory: URL(fileURLWithPath: directory), category: category, baseline: entries)
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

import CanaryTrap
import Foundation

/// `canary report merge`: one SARIF file for code scanning from a folder of per-test reports.
enum ReportCommand {
  static let merge = CommandSpec(
    name: "merge", abstract: "Merge per-test SARIF reports, or scan shards' JSON reports, into one.",
    discussion: """
      SARIF: merges every .sarif file in DIR (the folder CANARY_TRAP_REPORT_DIR names) into one \
      SARIF log with one run, automationDetails.id NAME/, and every result, as GitHub code scanning \
      requires (one run per category). A run holds at most 25,000 results, what code scanning \
      accepts; past that, results are counted in the run's resultsNotMerged property, an error \
      notification, its summary and on standard error, and the verdict still counts them.

      Shards: when DIR holds .json or .jsonl reports of 'canary scan' (-f json, -f jsonl) and no \
      .sarif file, merges them into one JSON-lines report: every shard's leak lines as they are \
      read, then every source, then a summary whose counts are the sums of the shards' and whose \
      verdict is the worst of theirs (leaky over inconclusive over clean), keeping every shard's \
      errors. A shard that is empty or cut short (no summary line), or fewer shards than --expect, \
      makes the merge inconclusive. Exits as 'canary scan' does.

      Writes to FILE, or to standard output.
      """,
    options: [
      outputOption, OutputOptions.force, OutputOptions.fifoWait, categoryOption, mergeBaselineOption,
      expectOption,
    ],
    arguments: [CommandArgument("DIR", help: "The folder of .sarif files, or of shard reports.")],
    epilogue: """
      EXIT STATUS (shard reports; a SARIF merge exits 0 once written):
        0  clean: every shard was clean.
        1  at least one shard found a leak.
        2  error: bad usage, or a report that cannot be read or is not a canary scan report.
        3  inconclusive: no leak, but a shard was inconclusive, empty, cut short or missing.
      """,
    run: { parsed, io in execute(parsed, io: io) })

  static let expectOption = Option<Int?>.integer(
    "--expect", placeholder: "N",
    help: "Shards: the number of shard reports expected; fewer make the merge inconclusive.",
    range: 1...1_000_000)

  static let stale = CommandSpec(
    name: "stale", abstract: "List the baseline entries that a whole test run never matched.",
    discussion: """
      Each test judges its leaks against Configuration.knownLeaks on its own, so one test cannot \
      tell whether an entry it did not match is stale: another test may match it. This reads \
      every .sarif report in DIR (the folder CANARY_TRAP_REPORT_DIR named for the run) and lists \
      the entries of FILE that no report's findings matched: leaks that are fixed, or whose test \
      did not run. Remove them so that the leak cannot come back unnoticed.
      """,
    options: [staleBaselineOption],
    arguments: [CommandArgument("DIR", help: "The folder of .sarif reports of one test run.")],
    epilogue: """
      EXIT STATUS
        0  every entry of the baseline matched a finding in some report.
        1  at least one entry matched nothing (listed on standard output).
        2  error: bad usage, an unreadable baseline or report, or no report in DIR was judged
           against a baseline (nothing to compare).
      """,
    run: { parsed, io in executeStale(parsed, io: io) })

  static let outputOption = OutputOptions.output("the merged log")

  static let categoryOption = Option<String?>.value(
    "--category", placeholder: "NAME", help: "The code scanning category.", defaultValue: "canarytrap")

  static let mergeBaselineOption = Option<ScanPath?>.path(
    "--baseline", short: "b", placeholder: "BASELINE",
    help:
      "The baseline the tests used (Configuration.knownLeaks): each of its entries that no report"
      + " matched becomes a result with baselineState absent.")

  static let staleBaselineOption = Option<ScanPath?>.path(
    "--baseline", short: "b",
    help: "The baseline file the tests read into Configuration.knownLeaks (required).")

  static let command = CommandSpec(
    name: "report",
    abstract: "Merge per-test SARIF reports into one; list stale baseline entries.",
    subcommands: [merge, stale])

  /// The baseline `option` names, or nil after reporting why it cannot be read.
  private static func baseline(
    _ parsed: ParsedCommand, _ option: Option<ScanPath?>, command: String, io: CommandIO
  ) -> [KnownLeak]?? {
    guard let path = parsed[option] else { return .some(nil) }
    do {
      return .some(try LeakBaseline(contentsOfPath: path.bytes).knownLeaks)
    } catch {
      io.writeError("\(command): \(error)\n")
      return nil
    }
  }

  static func executeStale(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    let name = "canary report stale"
    guard parsed[staleBaselineOption] != nil else {
      return CommandRunner.fail("missing --baseline FILE", name, io)
    }
    guard let read = baseline(parsed, staleBaselineOption, command: name, io: io), let entries = read else {
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
    let name = "canary report merge"
    let directory = parsed.positionals[0]
    let category = parsed[categoryOption] ?? "canarytrap"
    guard !category.isEmpty, !category.contains("/") else {
      return CommandRunner.fail("--category '\(category)' must be non-empty without '/'", name, io)
    }
    guard let entries = baseline(parsed, mergeBaselineOption, command: name, io: io) else {
      return ExitStatus.usage
    }
    // A folder of scan shard reports and no SARIF file is a shard merge; anything else (an
    // unreadable folder included) is the SARIF merge, with its own errors.
    let folder = URL(fileURLWithPath: directory)
    if let shards = try? ShardMerge.shardFiles(in: folder), !shards.isEmpty,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory),
      !names.contains(where: { $0.hasSuffix(".sarif") })
    {
      return mergeShards(shards, parsed: parsed, io: io)
    }
    let data: Data
    let output: OutputFile?
    do {
      let reports = try SARIFMerge.reportFiles(in: URL(fileURLWithPath: directory))
      let read = CommandInput.files(
        reports.map { ScanPath($0.path) } + [parsed[mergeBaselineOption]].compactMap { $0 })
      output = try OutputOptions.open(parsed, option: outputOption, inputs: read)
      data = try SARIFMerge.merge(
        directory: URL(fileURLWithPath: directory), category: category, baseline: entries,
        notMerged: { count in
          guard count > 0 else { return }
          CommandRunner.complain(
            "\(count) results past the limit of \(SARIFMerge.maxMergedResults) were not merged "
              + "(counted in the run's resultsNotMerged and summary; the verdict counts them)", name, io)
        })
      try OutputOptions.write(data + Data("\n".utf8), to: output, io: io)
    } catch {
      return CommandRunner.fail("\(error)", name, io)
    }
    if let output { CommandRunner.complain("wrote \(output.requested.displayName)", name, io) }
    return ExitStatus.success
  }

  /// Merges scan shard reports into one JSON-lines report; returns `canary scan`'s exit status.
  static func mergeShards(_ shards: [URL], parsed: ParsedCommand, io: CommandIO) -> Int32 {
    let name = "canary report merge"
    var merge = ShardMerge()
    var summary: ScanJSONLines.Summary?
    do {
      let output = try OutputOptions.open(
        parsed, option: outputOption, inputs: CommandInput.files(shards.map { ScanPath($0.path) }))
      try ScanReportWriter.stream(to: output, io: io) { emit in
        for shard in shards { try merge.add(shard, emit: emit) }
        for source in merge.sources { try emit(try ScanJSONLines.line(source)) }
        let merged = merge.summary(expected: parsed[expectOption])
        try emit(try ScanJSONLines.line(merged))
        summary = merged
      }
      if let output { CommandRunner.complain("wrote \(output.requested.displayName)", name, io) }
    } catch {
      return CommandRunner.fail("\(error)", name, io)
    }
    guard let summary else { return ExitStatus.usage }
    for error in summary.errors { CommandRunner.complain(error, name, io) }
    CommandRunner.complain(
      "\(merge.shards) shards, \(summary.sourceCount) sources, \(summary.leakCount) leaks: \(summary.verdict)",
      name, io)
    switch summary.verdict {
    case "leaky": return ExitStatus.leaks
    case "clean": return ExitStatus.success
    default: return ExitStatus.inconclusive
    }
  }
}

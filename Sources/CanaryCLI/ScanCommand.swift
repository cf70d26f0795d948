import CanaryTrap
import Foundation

/// `canary scan`: scan files, directories or standard input for the canaries of a manifest.
enum ScanCommand {
  static let command = CommandSpec(
    name: "scan", abstract: "Scan files, directories or stdin for a manifest's canaries.",
    discussion: """
      Searches every PATH for every canary of the manifest in every encoding: raw, any case, \
      percent/form/double-percent, JSON and HTML escapes, base64 and base64url at any alignment, hex, \
      UTF-16, SHA-256/SHA-1/MD5 digests (hex and base64), and fragments of N or more bytes. It also \
      decodes what the text shows (Foundation's Data descriptions, hex dumps, byte lists, \
      percent-encoded text, bytes printed with \\x escapes, gzip, zlib, raw deflate, zip, bzip2 or \
      Apple's LZ4 in base64 or shown as hex, also wrapped into lines) and searches the decoded bytes again; base64 of xz, zstd or another \
      format it does not open makes the scan inconclusive.

      With --baseline, findings the baseline accepts are reported on standard error as baselined and \
      do not fail the scan; any other finding still exits 1, and a baseline entry that matched \
      nothing is reported as stale (with --fail-on-stale it exits 1 too). Write a baseline with \
      'canary baseline'.
      """,
    options: [
      ScanArguments.manifestOption, ScanArguments.formatOption, ScanArguments.outputOption,
      OutputOptions.force,
      ScanArguments.minFragmentOption, ScanArguments.maxFindingsOption, ScanArguments.maxBytesOption,
      OutputOptions.fifoWaitForPaths, ScanFileList.option,
      baselineOption, failOnStaleOption, ScanBaselineTriage.rootOption,
    ],
    arguments: [ScanArguments.pathArgument],
    epilogue: """
      EXIT STATUS:
        0  clean: no leak (or only baselined ones), and every PATH held bytes that were scanned.
        1  at least one canary found that no baseline accepts (even if another PATH could not be
           read), or with --fail-on-stale a stale baseline entry.
        2  error: bad usage, a manifest or baseline that is unreadable, invalid or without
           entries, a PATH that cannot be read (a FIFO without a writer within --fifo-wait), or a
           report that cannot be written (one line on standard error).
        3  inconclusive: no leak, but nothing was looked at in some PATH (a 0-byte file, empty
           standard input, a directory holding only empty files), or a PATH held more than
           --max-bytes and was scanned only that far, or a container was stopped by a limit of
           ContainerLimits (a decompression bomb).
      """,
    run: { parsed, io in await execute(parsed, io: io) })

  static let baselineOption = Option<ScanPath?>.path(
    "--baseline", short: "b",
    help: "Accept the leaks this baseline file lists (see 'canary baseline'); a malformed file is an error.")

  static let failOnStaleOption = Option<Bool>.flag(
    "--fail-on-stale", help: "With --baseline: exit 1 when a baseline entry matched no finding.")

  /// The generated help text.
  static var help: String { HelpFormatter.help(for: command, commandName: "canary scan") }

  /// Runs `canary scan` with `arguments` (after the word `scan`).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(command, arguments, commandName: "canary scan", io: io)
  }

  /// Scans the parsed command line's PATHs and writes the report; returns the exit status.
  static func execute(_ command: ParsedCommand, io: CommandIO) async -> Int32 {
    var parsed = ScanArguments(command)
    let manifest: CanaryManifest
    var baseline: LeakBaseline?
    let list = command[ScanFileList.option]
    do {
      manifest = try parsed.loadManifest()
      guard !manifest.canaries.isEmpty else { throw ManifestError.noCanaries }
      guard !parsed.paths.isEmpty || list != nil else {
        throw ScanUsageError(description: "no PATH to scan; use - for standard input, or --files-from FILE")
      }
      let dash = Array("-".utf8)
      if list?.bytes == dash, parsed.paths.contains(where: { $0.bytes == dash }) {
        throw ScanUsageError(
          description:
            "--files-from - and the PATH - both read standard input; name the list or the input by file")
      }
      if let path = command[baselineOption] {
        guard !parsed.jsonLines else {
          throw ScanUsageError(
            description:
              "--baseline needs the whole report, which -f jsonl does not hold; use -f json with it")
        }
        baseline = try LeakBaseline(contentsOfPath: path.bytes)
      }
      if let list { parsed.paths += try ScanFileList.paths(from: list, wait: parsed.bounds.fifoWait, io: io) }
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    var walker = ScanInputWalker()
    let inputs = walker.inputs(for: parsed.paths)
    let output: OutputFile?
    do {
      let read = CommandInput.files([parsed.manifest, command[baselineOption], list].compactMap { $0 })
      output = try OutputOptions.open(
        command, option: ScanArguments.outputOption, inputs: read + CommandInput.scanned(inputs))
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    var run: ScanRun
    do {
      let scanner = LeakScanner(canaries: manifest.canaries, options: parsed.scanOptions)
      if parsed.jsonLines {
        return streamJSONLines(
          inputs, scanner: scanner, manifest: manifest, parsed: parsed, list: list, to: output, io: io)
      }
      run = ScanRun.scan(inputs, with: scanner, bounds: parsed.bounds, io: io)
    }  // the scanner's index (about 100 MB at 100,000 canaries) is freed before the report is built
    run.sayNothingWasListed(by: list)
    var report = LeakReport(
      title: "canary scan", canaries: manifest.canaries, findings: run.findings, sources: run.sources)
    var triage: ScanBaselineTriage?
    if let baseline {
      let sorted = ScanBaselineTriage(report, baseline: baseline, root: ScanBaselineTriage.root(command))
      report = sorted.remaining
      triage = sorted
    }
    do {
      try ScanReportWriter.write(report, as: parsed.format, to: output, io: io)
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    for reason in run.problems { complain(reason, io) }
    for name in run.cut {
      complain("\(name): \(ScanRun.cutReason(parsed.bounds.maxBytes)); the scan is inconclusive", io)
    }
    for line in run.limited { complain("\(line); the scan is inconclusive", io) }
    let status = exitStatus(for: report, unreadable: !run.problems.isEmpty)
    guard let triage else { return status }
    for line in triage.messages { complain(line, io) }
    if triage.uncoveredOmissions > 0 { return ExitStatus.leaks }
    if command[failOnStaleOption], !triage.stale.isEmpty { return ExitStatus.leaks }
    return status
  }

  /// `-f jsonl`: scans with each source's findings written as soon as it is scanned, then the
  /// source lines and the summary; returns the exit status.
  static func streamJSONLines(
    _ inputs: [ScanInputWalker.Input], scanner: LeakScanner, manifest: CanaryManifest, parsed: ScanArguments,
    list: ScanPath?, to output: OutputFile?, io: CommandIO
  ) -> Int32 {
    var run = ScanRun()
    var verdict = LeakReport.Verdict.clean
    do {
      try ScanReportWriter.stream(to: output, io: io) { emit in
        run = try ScanRun.scan(inputs, with: scanner, bounds: parsed.bounds, io: io, keepingFindings: false) {
          found in
          if !found.isEmpty { try emit(try ScanJSONLines.lines(found)) }
        }
        run.sayNothingWasListed(by: list)
        for (source, listed) in zip(run.sources, run.listedPerSource) {
          try emit(try ScanJSONLines.line(ScanJSONLines.Source(source, listed: listed)))
        }
        let report = LeakReport(
          title: "canary scan", canaries: manifest.canaries, findings: [], sources: run.sources)
        let omitted = report.omittedFindings.reduce(0) { $0 + $1.count }
        let total = run.listedFindings + omitted
        verdict = total > 0 ? .leaky : report.verdict
        try emit(
          try ScanJSONLines.line(
            ScanJSONLines.Summary(
              title: report.title, verdict: verdict.rawValue, clean: verdict == .clean, leakCount: total,
              listedLeaks: run.listedFindings, sourceCount: run.sources.count,
              bytes: run.sources.reduce(0) { $0 + $1.bytes }, errors: run.problems)))
      }
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    for reason in run.problems { complain(reason, io) }
    for name in run.cut {
      complain("\(name): \(ScanRun.cutReason(parsed.bounds.maxBytes)); the scan is inconclusive", io)
    }
    if verdict == .leaky { return ExitStatus.leaks }
    if !run.problems.isEmpty { return ExitStatus.usage }
    return verdict == .clean ? ExitStatus.success : ExitStatus.inconclusive
  }

  /// Writes `canary scan: <message>` as one line on standard error, control characters escaped.
  static func complain(_ message: String, _ io: CommandIO) {
    CommandRunner.complain(message, "canary scan", io)
  }

  /// Leak (1) beats error (2) beats inconclusive (3) beats clean (0).
  static func exitStatus(for report: LeakReport, unreadable: Bool) -> Int32 {
    if !report.findings.isEmpty { return ExitStatus.leaks }
    if unreadable { return ExitStatus.usage }
    return report.verdict == .clean ? ExitStatus.success : ExitStatus.inconclusive
  }
}

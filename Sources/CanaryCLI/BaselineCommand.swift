import CanaryTrap
import Foundation

/// `canary baseline`: write a baseline file accepting the leaks a codebase has today, from a scan
/// or from JSON reports, so later runs fail only on new leaks.
enum BaselineCommand {
  static let command = CommandSpec(
    name: "baseline", abstract: "Write a baseline of today's leaks so later scans fail only on new ones.",
    discussion: """
      Scans every PATH for the manifest's canaries (as 'canary scan' does), or reads the JSON reports \
      given with --from-report (written by 'canary scan --format json' or by tests into \
      CANARY_TRAP_REPORT_DIR), and writes a baseline: one entry per distinct canary location, source \
      and encoding chain, and one per location a report says was not delivered ("kind": \
      "undelivered"), each with a reason. Entries hold stable names only, never line numbers; \
      sources under --root are named relative to it.

      Use it with 'canary scan --baseline FILE' or, in tests, Configuration.knownLeaks = \
      LeakBaseline(contentsOf:).knownLeaks. Nothing is written when an input cannot be read or \
      findings were counted but not listed (raise --max-findings): a baseline must list every leak.
      """,
    options: [
      ScanArguments.manifestOption, fromReportOption, outputOption, OutputOptions.force, reasonOption,
      ScanBaselineTriage.rootOption,
      ScanArguments.minFragmentOption, ScanArguments.maxFindingsOption, ScanArguments.maxBytesOption,
      OutputOptions.fifoWaitForPaths,
    ],
    arguments: [ScanArguments.pathArgument],
    epilogue: """
      EXIT STATUS:
        0  the baseline was written (whether or not it lists any leak).
        2  error: bad usage, an unreadable manifest, PATH or report, a PATH larger than --max-bytes,
           findings left uncounted, or a baseline that cannot be written. Nothing is written then.
      """,
    run: { parsed, io in execute(parsed, io: io) })

  static let defaultReason = "known leak when the baseline was written"

  static let fromReportOption = Option<[String]>.repeated(
    "--from-report", placeholder: "FILE",
    help: "Read the leaks of this JSON report instead of scanning (repeatable).")

  static let outputOption = OutputOptions.output("the baseline")

  static let reasonOption = Option<String?>.value(
    "--reason", placeholder: "TEXT", help: "The reason recorded in every entry; edit entries to refine it.",
    defaultValue: "\"\(defaultReason)\"")

  static func execute(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    let root = ScanBaselineTriage.root(parsed)
    let reports = parsed[fromReportOption]
    let report: LeakReport
    let output: OutputFile?
    do {
      if !reports.isEmpty {
        guard parsed.positionals.isEmpty, parsed[ScanArguments.manifestOption] == nil else {
          throw ScanUsageError(
            description: "give either --from-report FILE or --manifest FILE PATH..., not both")
        }
        let read = CommandInput.files(reports.map { ScanPath($0) })
        output = try OutputOptions.open(parsed, option: outputOption, inputs: read)
        report = try ReportLeaks.read(reports)
      } else {
        (report, output) = try scan(parsed, io: io)
      }
      if report.totalFindingCount > report.findings.count {
        throw ScanUsageError(
          description:
            "\(report.totalFindingCount - report.findings.count) findings were counted but not listed;"
            + " raise --max-findings so the baseline can name every leak")
      }
    } catch {
      return CommandRunner.fail("\(error)", "canary baseline", io)
    }
    let baseline = LeakBaseline(
      accepting: report, reason: parsed[reasonOption] ?? defaultReason,
      sourceName: { ScanBaselineTriage.sourceName($0.source, root: root) })
    guard baseline.knownLeaks.count <= LeakBaseline.maximumEntries else {
      return CommandRunner.fail(
        "the baseline would hold \(baseline.knownLeaks.count) entries, more than the"
          + " \(LeakBaseline.maximumEntries) a baseline may hold (scan --baseline reads no more); nothing was"
          + " written: fix leaks first, or write a baseline per source", "canary baseline", io)
    }
    do {
      try OutputOptions.write(try baseline.jsonData(), to: output, io: io)
    } catch {
      return CommandRunner.fail("\(error)", "canary baseline", io)
    }
    if let output {
      CommandRunner.complain(
        "wrote \(baseline.knownLeaks.count) entries for \(report.findings.count) findings"
          + (report.undelivered.isEmpty
            ? ""
            : " and \(report.undelivered.count) undelivered canar\(report.undelivered.count == 1 ? "y" : "ies")")
          + " to \(output.requested.displayName)", "canary baseline", io)
    }
    return ExitStatus.success
  }

  /// Opens the output, then scans the PATHs; an input that cannot be read, or was read only up to
  /// --max-bytes, is an error, so no leak is left out.
  private static func scan(_ parsed: ParsedCommand, io: CommandIO) throws -> (LeakReport, OutputFile?) {
    let arguments = ScanArguments(parsed)
    let manifest = try arguments.loadManifest()
    guard !manifest.canaries.isEmpty else { throw ManifestError.noCanaries }
    guard !arguments.paths.isEmpty else {
      throw ScanUsageError(
        description: "no PATH to scan (or give --from-report FILE); use - for standard input")
    }
    var walker = ScanInputWalker()
    let inputs = walker.inputs(for: arguments.paths)
    let read = CommandInput.files([arguments.manifest].compactMap { $0 }) + CommandInput.scanned(inputs)
    let output = try OutputOptions.open(parsed, option: outputOption, inputs: read)
    let scanner = LeakScanner(canaries: manifest.canaries, options: arguments.scanOptions)
    let run = ScanRun.scan(inputs, with: scanner, bounds: arguments.bounds, io: io)
    if let problem = run.problems.first { throw ScanUsageError(description: problem) }
    if let cut = run.cut.first {
      throw ScanUsageError(
        description:
          "\(cut): \(ScanRun.cutReason(arguments.bounds.maxBytes)); raise --max-bytes so the baseline"
          + " can name every leak")
    }
    if let limited = run.limited.first {
      throw ScanUsageError(description: limited + "; the baseline cannot name every leak")
    }
    let report = LeakReport(
      title: "canary baseline", canaries: manifest.canaries, findings: run.findings, sources: run.sources)
    return (report, output)
  }
}

/// The leaks listed in JSON reports (`canary scan --format json`, or a test's report file), and
/// the canaries they say were not delivered.
enum ReportLeaks {
  /// One report holding every leak of the files; `leakCount` beyond the listed leaks is kept as a
  /// count of omitted findings so the caller can refuse it.
  static func read(_ paths: [String]) throws -> LeakReport {
    var findings: [LeakFinding] = []
    var undelivered: [CanaryDelivery] = []
    var omitted = 0
    for path in paths {
      let (listed, total, notDelivered) = try readOne(path)
      findings += listed
      undelivered += notDelivered
      omitted += max(0, total - listed.count)
    }
    var report = LeakReport(
      title: "canary baseline", canaries: Array(Set(findings.map(\.canary))), findings: findings,
      deliveries: undelivered)
    if omitted > 0, let first = findings.first {
      report.sources = [
        ScannedSource(
          name: first.source, bytes: 0,
          omittedFindings: [OmittedFindings(canary: first.canary, source: first.source, count: omitted)])
      ]
    }
    return report
  }

  /// Reads a JSON report through the type that writes it (``JSONReportDocument``), as
  /// `canary report merge` reads its shards.
  private static func readOne(_ path: String) throws -> (
    findings: [LeakFinding], total: Int, undelivered: [CanaryDelivery]
  ) {
    let data = try InputDocument.read(path, what: "it is not a report")
    let document: JSONReportDocument
    do {
      document = try JSONDecoder().decode(JSONReportDocument.self, from: data)
    } catch {
      throw ScanUsageError(
        description:
          "report \(path) is not a CanaryTrap JSON report (\(Self.describe(error)));"
          + " write one with --format json")
    }
    let findings = try document.leaks.enumerated().map { index, leak in
      guard let chain = EncodingChain(name: leak.encoding) else {
        throw ScanUsageError(
          description: "report \(path): leaks[\(index)] has an unknown encoding \"\(leak.encoding)\"")
      }
      return LeakFinding(
        canary: Canary(value: leak.canary.value, location: CanaryLocation(leak.canary.location)),
        encodings: chain, source: leak.source, line: 0, column: 0, offset: 0, excerpt: "")
    }
    let undelivered = document.undelivered.map { entry in
      CanaryDelivery(
        canary: Canary(value: entry.canary.value, location: CanaryLocation(entry.canary.location)),
        status: .undelivered(reason: entry.reason))
    }
    return (findings, document.leakCount ?? findings.count, undelivered)
  }

  /// What a document lacks to be a report, such as `no "leaks" field`.
  private static func describe(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }
        .description
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "no \"\(path(context.codingPath + [key]))\" field"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\"\(path(context.codingPath))\" has the wrong type"
    default: return "not valid JSON"
    }
  }
}

import CanaryTrap
import Foundation

/// `canary scan`: scan files, directories or standard input for the canaries of a manifest.
enum ScanCommand {
  static let help = """
    USAGE: canary scan --manifest FILE [--format text|json|junit|sarif|html] [--output FILE]
                       [--min-fragment N] [--max-findings N] PATH...

    Searches every PATH for every canary of the manifest in every encoding: raw, any case,
    percent/form/double-percent, JSON and HTML escapes, base64 and base64url at any alignment,
    hex, UTF-16, SHA-256/SHA-1/MD5 digests (hex and base64), and fragments of N or more bytes.

    ARGUMENTS:
      PATH                   A file (a FIFO or device too: it is read once, as a stream), a
                             directory (walked recursively, links followed, loops skipped,
                             only regular files inside; one without any is an error), or -
                             for standard input. Names need not be UTF-8.

    OPTIONS:
      --manifest FILE        The canary manifest (required; at least one canary, each value
                             12 to 1024 bytes with at least 5 distinct characters).
      --format FORMAT        text (default), json, junit, sarif or html.
      --output FILE          Write the report there instead of standard output. A regular
                             file is replaced only once the report is complete, keeping its
                             mode; a device or FIFO (/dev/null) is written in place; a
                             directory, or a file that is also a PATH, is refused.
      --min-fragment N       Shortest fragment reported, in bytes (default 16, at least 8;
                             0 turns them off).
      --max-findings N       Findings listed per canary and source (default 100, 1 to
                             100000); every report still counts the rest exactly.
      -h, --help             Show this help.

    EXIT STATUS:
      0  clean: no leak, and every PATH held bytes that were scanned.
      1  at least one canary found (even if another PATH could not be read).
      2  error: bad usage, a manifest that is unreadable, invalid or without canaries, a
         PATH that cannot be read, or a report that cannot be written (one line on
         standard error).
      3  inconclusive: no leak, but nothing was looked at in some PATH (a 0-byte file,
         empty standard input, a directory holding only empty files).

    """

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    let parsed: ScanArguments
    let manifest: CanaryManifest
    do {
      parsed = try ScanArguments.parse(
        arguments, bytes: io.argumentBytes, command: "scan",
        allowed: ["--format", "--output", "--min-fragment", "--max-findings"])
      if parsed.help {
        io.writeOutput(help)
        return ExitStatus.success
      }
      manifest = try parsed.loadManifest()
      guard !manifest.canaries.isEmpty else { throw ManifestError.noCanaries }
      guard !parsed.paths.isEmpty else {
        throw ScanUsageError(description: "no PATH to scan; use - for standard input")
      }
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    var walker = ScanInputWalker()
    let inputs = walker.inputs(for: parsed.paths)
    let output: ScanOutput?
    do {
      output = try parsed.output.map { try ScanOutput($0) }
      if let output { try ScanRun.refuseOverwriting(inputs, with: output) }
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    let scanner = LeakScanner(canaries: manifest.canaries, options: parsed.scanOptions)
    let run = ScanRun.scan(inputs, with: scanner, io: io)
    let report = LeakReport(
      title: "canary scan", canaries: manifest.canaries, findings: run.findings, sources: run.sources)
    do {
      try ScanReportWriter.write(report, as: parsed.format, to: output, io: io)
    } catch {
      complain("\(error)", io)
      return ExitStatus.usage
    }
    for reason in run.problems { complain(reason, io) }
    return exitStatus(for: report, unreadable: !run.problems.isEmpty)
  }

  /// Writes one line on standard error, with any control character escaped (`\x1B`) so that
  /// text from the command line or a file name cannot drive the terminal.
  static func complain(_ message: String, _ io: CommandIO) {
    var line = "canary scan: "
    for scalar in message.unicodeScalars {
      if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
        line += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
      } else {
        line.unicodeScalars.append(scalar)
      }
    }
    io.writeError(line + "\n")
  }

  /// Leak (1) beats error (2) beats inconclusive (3) beats clean (0).
  static func exitStatus(for report: LeakReport, unreadable: Bool) -> Int32 {
    if !report.findings.isEmpty { return ExitStatus.leaks }
    if unreadable { return ExitStatus.usage }
    return report.verdict == .clean ? ExitStatus.success : ExitStatus.inconclusive
  }
}

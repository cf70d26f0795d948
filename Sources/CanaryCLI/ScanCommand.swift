import CanaryTrap
import Foundation

/// `canary scan`: scan files, directories or standard input for the canaries of a manifest.
enum ScanCommand {
  static let help = """
    USAGE: canary scan --manifest FILE [--format text|json|junit|sarif|html] [--output FILE]
                       [--min-fragment N] PATH...

    Searches every PATH for every canary of the manifest in every encoding: raw, any case,
    percent/form/double-percent, JSON and HTML escapes, base64 and base64url at any alignment,
    hex, UTF-16, SHA-256/SHA-1/MD5 digests (hex and base64), and fragments of N or more bytes.

    ARGUMENTS:
      PATH                   A file, a directory (walked recursively, links followed, loops
                             skipped, only regular files inside; one without any is an
                             error), or - for standard input.

    OPTIONS:
      --manifest FILE        The canary manifest (required).
      --format FORMAT        text (default), json, junit, sarif or html.
      --output FILE          Write the report there instead of standard output.
      --min-fragment N       Shortest fragment reported, in bytes (default 16; 0 turns them off).
      -h, --help             Show this help.

    EXIT STATUS:
      0  no leak.
      1  at least one canary found (even if another PATH could not be read).
      2  bad usage, an unreadable manifest, or an unreadable PATH (one line on standard error).

    """

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    let parsed: ScanArguments
    let manifest: CanaryManifest
    do {
      parsed = try ScanArguments.parse(
        arguments, command: "scan", allowed: ["--format", "--output", "--min-fragment"])
      if parsed.help {
        io.writeOutput(help)
        return ExitStatus.success
      }
      manifest = try parsed.loadManifest()
      guard !parsed.paths.isEmpty else {
        throw ScanUsageError(description: "no PATH to scan; use - for standard input")
      }
    } catch {
      io.writeError("canary scan: \(error)\n")
      return ExitStatus.usage
    }
    let scanner = LeakScanner(canaries: manifest.canaries, options: parsed.scanOptions)
    var walker = ScanInputWalker()
    var findings: [LeakFinding] = []
    var sources: [ScannedSource] = []
    var unreadable: [String] = []
    for input in walker.inputs(for: parsed.paths) {
      switch input {
      case .standardInput:
        let stream = scanner.makeStream(source: "-")
        while case let chunk = io.readInputChunk(), !chunk.isEmpty { stream.feed(chunk) }
        findings += stream.finish()
        sources.append(ScannedSource(name: "-", bytes: stream.bytesScanned))
      case .file(let path):
        let result = scanner.scan(.file(URL(fileURLWithPath: path), name: path))
        findings += result.findings
        sources.append(result.source)
        if case .failed(let reason) = result.source.status { unreadable.append(reason) }
      case .unreadable(let path, let reason):
        unreadable.append("cannot read \(path): \(reason)")
        sources.append(ScannedSource(name: path, bytes: 0, status: .failed(reason: reason)))
      }
    }
    let report = LeakReport(
      title: "canary scan", canaries: manifest.canaries, findings: findings, sources: sources)
    let rendered = report.rendered(as: parsed.format)
    if let output = parsed.output {
      do {
        try rendered.write(to: output, options: .atomic)
      } catch {
        io.writeError("canary scan: cannot write \(output.path): \(error.localizedDescription)\n")
        return ExitStatus.usage
      }
    } else {
      io.writeOutput(String(decoding: rendered, as: UTF8.self))
    }
    for reason in unreadable { io.writeError("canary scan: \(reason)\n") }
    if !findings.isEmpty { return ExitStatus.leaks }
    return unreadable.isEmpty ? ExitStatus.success : ExitStatus.usage
  }
}

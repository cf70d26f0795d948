import CanaryTrap
import Foundation

/// `canary patterns`: print every literal byte string the scanner searches for.
enum PatternsCommand {
  static let command = CommandSpec(
    name: "patterns", abstract: "Print every literal byte string the scanner searches for.",
    discussion: """
      Prints every literal byte string 'canary scan' searches for, one per line, so another tool \
      can reproduce the search:
        canary patterns --manifest m.json > p.txt && rg -F -f p.txt LOGS

      A literal containing a NUL, CR or LF byte, or bytes that are not UTF-8 (UTF-16 forms, values \
      with line breaks), cannot be a line of a pattern file: it is left out, and a count of those goes \
      to standard error. Matches the scanner finds without a literal of their own are not listed \
      either: the raw value in other letter case (use rg -i) and fragments of 16 or more bytes of a \
      value. Anchors are listed: a value's longest escape-free run in base64, hex or UTF-16, which the \
      scanner only reports once re-encoding an escaped form of the whole value around the hit \
      confirms it.
      """,
    options: [
      ScanArguments.manifestOption, escapedOption,
    ],
    run: { parsed, io in execute(parsed, io: io) })

  static let escapedOption = Option<Bool>.flag(
    "--escaped",
    help:
      "Print every literal, tab-separated after its encoding and location, with bytes outside printable"
      + " ASCII as \\xHH and backslash as \\\\.")

  /// Runs `canary patterns` with `arguments` (after the word `patterns`).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(command, arguments, commandName: "canary patterns", io: io)
  }

  static func execute(_ command: ParsedCommand, io: CommandIO) -> Int32 {
    let parsed = ScanArguments(command)
    let escaped = command[escapedOption]
    let manifest: CanaryManifest
    do {
      manifest = try parsed.loadManifest()
    } catch {
      return CommandRunner.fail("\(error)", "canary patterns", io)
    }
    let scanner = LeakScanner(canaries: manifest.canaries)
    var output = ""
    var omitted = 0
    for pattern in scanner.patterns {
      if escaped {
        output += "\(pattern.chain)\t\(pattern.canary.location)\t\(escape(pattern.bytes))\n"
      } else if !pattern.bytes.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }),
        let line = String(bytes: pattern.bytes, encoding: .utf8)
      {
        output += line + "\n"
      } else {
        omitted += 1
      }
    }
    io.writeOutput(output)
    if omitted > 0 {
      io.writeError(
        "canary patterns: left out \(omitted) literals containing NUL, CR, LF or non-UTF-8 bytes (see --escaped)\n"
      )
    }
    return ExitStatus.success
  }

  /// Printable ASCII as is, backslash doubled, every other byte as `\xHH`.
  static func escape(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\\"): text += "\\\\"
      case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
      default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return text
  }
}

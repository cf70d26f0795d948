import CanaryTrap
import Foundation

/// A command-line mistake, reported as one line on standard error with exit status 2.
struct ScanUsageError: Error, CustomStringConvertible {
  var description: String
}

/// The options `canary scan`, `canary baseline` and `canary patterns` share, declared once,
/// and what they parse into.
struct ScanArguments {
  var manifest: ScanPath?
  var format: ReportFormat = .text
  /// `-f jsonl`: one JSON object a line, findings written as found (``ScanJSONLines``).
  var jsonLines = false
  var output: ScanPath?
  /// `nil` keeps the default (16); 0 turns fragments off.
  var minFragment: Int?
  /// `nil` keeps the default (``ScanOptions/defaultMaxFindingsPerCanary``).
  var maxFindings: Int?
  /// How far one input is read.
  var bounds = ScanRun.Bounds(
    maxBytes: byteCount(defaultMaxBytes)!, fifoWait: .seconds(OutputOptions.defaultFIFOWait))
  var paths: [ScanPath] = []

  /// The most findings `--max-findings` may keep per canary and source.
  static let maxFindingsLimit = 100_000

  static let manifestOption = Option<ScanPath?>.path(
    "--manifest", short: "m",
    help:
      "The canary manifest (required; at least one canary, each value \(CanaryManifest.minimumValueLength) to"
      + " \(CanaryManifest.maximumValueLength) bytes with at least \(CanaryManifest.minimumDistinctCharacters)"
      + " distinct characters).")

  static let formatOption = Option<String?>.value(
    "--format", short: "f", placeholder: "FORMAT",
    help:
      "The report format. jsonl writes one finding a line as it is found, then a line a source and a"
      + " summary line with the verdict and exact counts (for shards; see 'canary report merge').",
    defaultValue: "text",
    choices: ReportFormat.allCases.map(\.rawValue) + [ScanJSONLines.formatName])

  static let outputOption = OutputOptions.output("the report")

  /// The default of `--max-bytes`: what all the containers of one source may expand to
  /// (``ContainerLimits/maxExpandedBytes``, 32 GiB), so no input is read further plain than packed.
  static let defaultMaxBytes = "\(ContainerLimits().maxExpandedBytes >> 30)G"

  static let maxBytesOption = Option<String?>.value(
    "--max-bytes", placeholder: "SIZE",
    help:
      "The most bytes read from one PATH (a file, a FIFO, a device such as /dev/zero, or standard input;"
      + " an archive or database is read that far too; what it expands to has its own limits). One that holds more is scanned that far and the scan is"
      + " inconclusive (exit 3), never clean. A number of bytes, or with K, M, G or T (powers of 1024).",
    defaultValue: defaultMaxBytes,
    check: { byteCount($0) == nil ? "--max-bytes needs a size such as 512M or 16G, not '\($0)'" : nil }
  ).map { $0.flatMap(byteCount) }

  /// `512`, `64K`, `512M`, `16G`, `1T` as bytes (powers of 1024), or `nil`; at least 1.
  static func byteCount(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 10, "M": 20, "G": 30, "T": 40]
    var digits = Substring(text)
    var shift = 0
    if let last = digits.last, let unit = units[Character(last.uppercased())] {
      shift = unit
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0,
      number <= Int.max >> shift
    else { return nil }
    return number << shift
  }

  static let minFragmentOption = Option<String?>.value(
    "--min-fragment", placeholder: "N",
    help:
      "Shortest fragment of a value reported, in bytes (at least \(ScanOptions.minimumFragmentLength);"
      + " 0 turns fragments off).",
    defaultValue: "16",
    check: { text in
      let floor = ScanOptions.minimumFragmentLength
      guard let number = Int(text), number == 0 || (floor...4096).contains(number) else {
        return "--min-fragment needs 0 (off) or a number from \(floor) to 4096, not '\(text)'"
          + " (shorter fragments of a random value turn up by chance in ordinary logs)"
      }
      return nil
    }
  ).map { $0.flatMap { Int($0) } }

  static let maxFindingsOption = Option<Int?>.integer(
    "--max-findings",
    help: "Findings listed per canary and source; every report still counts the rest exactly.",
    defaultValue: "\(ScanOptions.defaultMaxFindingsPerCanary)", range: 1...maxFindingsLimit)

  static let pathArgument = CommandArgument(
    "PATH",
    help:
      "A file (a FIFO or device too: it is read once, as a stream), a directory (walked recursively, links"
      + " followed, loops skipped, only regular files inside; one without any is an error), or - for"
      + " standard input. Names need not be UTF-8. Archives (.gz, .zip, .tar, .tgz) are opened.",
    required: false, repeating: true)

  /// Reads the scan options out of a parsed command line.
  init(_ parsed: ParsedCommand) {
    manifest = parsed[Self.manifestOption]
    if let word = parsed[Self.formatOption] {
      if word == ScanJSONLines.formatName {
        jsonLines = true
        format = .json
      } else if let format = ReportFormat(rawValue: word) {
        self.format = format
      }
    }
    output = parsed[Self.outputOption]
    minFragment = parsed[Self.minFragmentOption]
    maxFindings = parsed[Self.maxFindingsOption]
    if let size = parsed[Self.maxBytesOption] { bounds.maxBytes = size }
    bounds.fifoWait = OutputOptions.fifoWaitDuration(parsed)
    paths = parsed.positionalPaths
  }

  /// Reads the manifest named by --manifest.
  func loadManifest() throws -> CanaryManifest {
    guard let manifest else { throw ScanUsageError(description: "--manifest FILE is required") }
    return try CanaryManifest(contentsOfPath: manifest.bytes)
  }

  /// Scanner options from the command line.
  var scanOptions: ScanOptions {
    var options = ScanOptions()
    if let minFragment { options.minFragment = minFragment == 0 ? nil : minFragment }
    if let maxFindings { options.maxFindingsPerCanary = maxFindings }
    return options
  }
}

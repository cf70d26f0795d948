import CanaryTrap
import Foundation

/// A command-line mistake, reported as one line on standard error with exit status 2.
struct ScanUsageError: Error, CustomStringConvertible {
  var description: String
}

/// The parsed options of `canary scan` and `canary patterns`.
struct ScanArguments {
  var manifest: ScanPath?
  var format: ReportFormat = .text
  var output: ScanPath?
  /// `nil` keeps the default (16); 0 turns fragments off.
  var minFragment: Int?
  /// `nil` keeps the default (``ScanOptions/defaultMaxFindingsPerCanary``).
  var maxFindings: Int?
  var escaped = false
  var paths: [ScanPath] = []
  var help = false

  /// The most findings `--max-findings` may keep per canary and source.
  static let maxFindingsLimit = 100_000

  /// Parses `arguments`; `allowed` lists the options the subcommand accepts besides --manifest.
  /// `bytes`, when it holds the same arguments as the system passed them, supplies the exact
  /// bytes of path arguments (names that are not UTF-8).
  static func parse(
    _ arguments: [String], bytes: [[UInt8]] = [], command: String, allowed: Set<String>
  ) throws -> ScanArguments {
    let raw = exactBytes(of: arguments, from: bytes)
    var result = ScanArguments()
    var index = 0
    var optionsEnded = false
    func value(for option: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw ScanUsageError(description: "\(option) needs a value") }
      return arguments[index]
    }
    func pathValue(for option: String) throws -> ScanPath {
      _ = try value(for: option)
      return ScanPath(bytes: raw[index])
    }
    while index < arguments.count {
      let argument = arguments[index]
      defer { index += 1 }
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        result.paths.append(ScanPath(bytes: raw[index]))
        continue
      }
      if argument != "--manifest" && !allowed.contains(argument)
        && !["--help", "-h", "--"].contains(argument)
      {
        throw ScanUsageError(description: "unknown option '\(argument)'; see 'canary \(command) --help'")
      }
      switch argument {
      case "--": optionsEnded = true
      case "--help", "-h": result.help = true
      case "--manifest": result.manifest = try pathValue(for: argument)
      case "--output": result.output = try pathValue(for: argument)
      case "--escaped": result.escaped = true
      case "--format":
        let text = try value(for: argument)
        guard let format = ReportFormat(rawValue: text) else {
          let names = ReportFormat.allCases.map(\.rawValue).joined(separator: "|")
          throw ScanUsageError(description: "--format must be one of \(names), not '\(text)'")
        }
        result.format = format
      case "--min-fragment":
        let text = try value(for: argument)
        let floor = ScanOptions.minimumFragmentLength
        guard let number = Int(text), number == 0 || (floor...4096).contains(number) else {
          throw ScanUsageError(
            description:
              "--min-fragment needs 0 (off) or a number from \(floor) to 4096, not '\(text)'"
              + " (shorter fragments of a random value turn up by chance in ordinary logs)")
        }
        result.minFragment = number
      case "--max-findings":
        let text = try value(for: argument)
        guard let number = Int(text), (1...maxFindingsLimit).contains(number) else {
          throw ScanUsageError(
            description: "--max-findings needs a number from 1 to \(maxFindingsLimit), not '\(text)'")
        }
        result.maxFindings = number
      default:
        throw ScanUsageError(description: "unknown option '\(argument)'; see 'canary \(command) --help'")
      }
    }
    return result
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

  /// The system's bytes of each argument when `bytes` ends with the same arguments (decoding
  /// each to the same text), otherwise their UTF-8.
  private static func exactBytes(of arguments: [String], from bytes: [[UInt8]]) -> [[UInt8]] {
    let tail = bytes.suffix(arguments.count)
    guard tail.count == arguments.count,
      zip(tail, arguments).allSatisfy({ String(decoding: $0, as: UTF8.self) == $1 })
    else { return arguments.map { Array($0.utf8) } }
    return Array(tail)
  }
}

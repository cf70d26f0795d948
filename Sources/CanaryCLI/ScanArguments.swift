import CanaryTrap
import Foundation

/// A command-line mistake, reported as one line on standard error with exit status 2.
struct ScanUsageError: Error, CustomStringConvertible {
  var description: String
}

/// The parsed options of `canary scan` and `canary patterns`.
struct ScanArguments {
  var manifest: URL?
  var format: ReportFormat = .text
  var output: URL?
  /// `nil` keeps the default (16); 0 turns fragments off.
  var minFragment: Int?
  var escaped = false
  var paths: [String] = []
  var help = false

  /// Parses `arguments`; `allowed` lists the options the subcommand accepts besides --manifest.
  static func parse(_ arguments: [String], command: String, allowed: Set<String>) throws -> ScanArguments {
    var result = ScanArguments()
    var index = 0
    var optionsEnded = false
    func value(for option: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw ScanUsageError(description: "\(option) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      defer { index += 1 }
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        result.paths.append(argument)
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
      case "--manifest": result.manifest = URL(fileURLWithPath: try value(for: argument))
      case "--output": result.output = URL(fileURLWithPath: try value(for: argument))
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
        guard let number = Int(text), number == 0 || (4...4096).contains(number) else {
          throw ScanUsageError(
            description: "--min-fragment needs 0 (off) or a number from 4 to 4096, not '\(text)'")
        }
        result.minFragment = number
      default:
        throw ScanUsageError(description: "unknown option '\(argument)'; see 'canary \(command) --help'")
      }
    }
    return result
  }

  /// Reads the manifest named by --manifest.
  func loadManifest() throws -> CanaryManifest {
    guard let manifest else { throw ScanUsageError(description: "--manifest FILE is required") }
    return try CanaryManifest(contentsOf: manifest)
  }

  /// Scanner options from the command line.
  var scanOptions: ScanOptions {
    var options = ScanOptions()
    if let minFragment { options.minFragment = minFragment == 0 ? nil : minFragment }
    return options
  }
}

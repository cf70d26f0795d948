import CanaryTrap
import Foundation

/// `canary report merge`: one SARIF file for code scanning from a folder of per-test reports.
enum ReportCommand {
  static let usage = """
    USAGE: canary report merge DIR [-o FILE] [--category NAME] [--force]

    Merges every .sarif file in DIR (the folder CANARY_TRAP_REPORT_DIR names) into one SARIF log
    with one run, automationDetails.id NAME/, and every result, as GitHub code scanning requires
    (one run per category). Writes it to FILE, or to standard output.

    OPTIONS:
      -o, --output FILE   Where to write the merged log (refuses to replace a file without --force).
      --category NAME     The code scanning category (default: canarytrap).
      --force             Replace FILE if it exists.
      -h, --help          Show this help.

    """

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    var remaining = arguments[...]
    guard let action = remaining.popFirst(), action != "-h", action != "--help" else {
      io.writeOutput(usage)
      return arguments.isEmpty ? ExitStatus.usage : ExitStatus.success
    }
    guard action == "merge" else {
      io.writeError("canary report: unknown action '\(action)'; only 'merge' exists\n")
      return ExitStatus.usage
    }
    var directory: String?
    var output: String?
    var category = "canarytrap"
    var force = false
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        io.writeOutput(usage)
        return ExitStatus.success
      case "-o", "--output", "--category":
        guard let value = remaining.popFirst() else {
          io.writeError("canary report merge: \(argument) needs a value\n")
          return ExitStatus.usage
        }
        if argument == "--category" { category = value } else { output = value }
      case "--force": force = true
      default:
        guard directory == nil, !argument.hasPrefix("-") else {
          io.writeError("canary report merge: unexpected argument '\(argument)'\n")
          return ExitStatus.usage
        }
        directory = argument
      }
    }
    guard let directory else {
      io.writeError("canary report merge: name the folder of .sarif files\n")
      return ExitStatus.usage
    }
    guard !category.isEmpty, !category.contains("/") else {
      io.writeError("canary report merge: --category '\(category)' must be non-empty without '/'\n")
      return ExitStatus.usage
    }
    let data: Data
    do {
      data = try SARIFMerge.merge(directory: URL(fileURLWithPath: directory), category: category)
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

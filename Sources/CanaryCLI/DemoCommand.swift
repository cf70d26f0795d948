import CanaryTrap
import Foundation

/// `canary demo`: runs the canary matrix against the example apps.
enum DemoCommand {
  static let usage = """
    USAGE: canary demo [--format text|json] [--output-dir DIR] [--show-app-output]

    Runs every canary location against four example apps — a printing logger, a denylist
    interceptor, an allowlist redacting transport and an in-app network inspector — scans the
    sinks each one writes to, and prints a location × sink grid and a verdict per example.
    Exits 0 when every verdict matches what the example's design implies (the leaky examples
    are expected to leak), 1 otherwise.

    OPTIONS:
      --format text|json   Print the grids (text, default) or the combined JSON report.
      --output-dir DIR     Where the HTML and JSON reports go (default: ./canary-reports).
      --show-app-output    Let the examples' own printing through to the terminal.
      -h, --help           Show this help.

    """

  /// What a demo run does.
  struct Options {
    var format = "text"
    var outputDirectory = URL(fileURLWithPath: "canary-reports", isDirectory: true)
    var showAppOutput = false
    var printing = DemoScenario.PrintDestination.standardOutput
    var kinds = RequestKind.all
    var scenarios = DemoScenario.all
  }

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        io.writeOutput(usage)
        return ExitStatus.success
      case "--format":
        guard let format = remaining.popFirst(), ["text", "json"].contains(format) else {
          return fail("--format takes text or json", io: io)
        }
        options.format = format
      case "--output-dir", "-o":
        guard let directory = remaining.popFirst() else {
          return fail("--output-dir needs a directory", io: io)
        }
        options.outputDirectory = URL(fileURLWithPath: directory, isDirectory: true)
      case "--show-app-output":
        options.showAppOutput = true
      default:
        return fail("unknown argument '\(argument)'", io: io)
      }
    }
    return await execute(options, io: io)
  }

  /// Runs every scenario, then prints and writes the results; returns the exit status.
  static func execute(_ options: Options, io: CommandIO) async -> Int32 {
    let silence = options.showAppOutput ? nil : StandardOutputSilencer()
    var outcomes: [DemoOutcome] = []
    for scenario in options.scenarios {
      let report = await scenario.run(options.kinds, options.printing)
      outcomes.append(DemoOutcome(scenario: scenario, report: report))
    }
    silence?.restore()  // nothing the demo itself prints is captured: every scope has ended

    let combined = DemoOutcome.combined(outcomes)
    var written: [URL] = []
    do {
      for outcome in outcomes {
        written += try outcome.report.write(
          to: options.outputDirectory, baseName: outcome.scenario.name, formats: [.html, .json])
      }
      written += try combined.write(to: options.outputDirectory, baseName: "demo", formats: [.html, .json])
    } catch {
      io.writeError("canary demo: cannot write reports to \(options.outputDirectory.path): \(error)\n")
      return ExitStatus.usage
    }

    if options.format == "json" {
      io.writeOutput(String(decoding: combined.rendered(as: .json), as: UTF8.self) + "\n")
    } else {
      io.writeOutput(DemoOutcome.text(outcomes, reportDirectory: options.outputDirectory))
    }
    let mismatches = outcomes.filter { !$0.matches }
    for outcome in mismatches {
      io.writeError(
        "canary demo: \(outcome.scenario.name) did not match its expectation: "
          + outcome.reasons.joined(separator: "; ") + "\n")
    }
    _ = written
    return mismatches.isEmpty ? ExitStatus.success : ExitStatus.leaks
  }

  private static func fail(_ reason: String, io: CommandIO) -> Int32 {
    io.writeError("canary demo: \(reason)\nRun 'canary demo --help' for usage.\n")
    return ExitStatus.usage
  }
}

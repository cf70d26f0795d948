import CanaryTrap
import Foundation

/// `canary demo`: runs the canary matrix against the example apps.
enum DemoCommand {
  static let command = CommandSpec(
    name: "demo", abstract: "Run the canary matrix against the example apps.",
    discussion: """
      Runs every canary location against five example apps (a printing logger, a denylist \
      interceptor, an allowlist redacting transport, an in-app network inspector and a crash \
      reporter's breadcrumb uploader), scans the sinks \
      each one writes to, and prints a location × sink grid and a verdict per example. The WebSocket \
      kinds run on the examples with a WebSocket chat client (the printing logger and the redacting \
      transport); the others list them as not run, with the reason. Exits 0 when \
      every verdict matches what the example's design implies (the leaky examples are expected to \
      leak), 1 otherwise.
      """,
    options: [formatOption, outputDirectoryOption, showAppOutputOption],
    run: { parsed, io in
      var options = Options()
      if let format = parsed[formatOption] { options.format = format }
      if let directory = parsed[outputDirectoryOption] {
        options.outputDirectory = URL(fileURLWithPath: directory, isDirectory: true)
      }
      options.showAppOutput = parsed[showAppOutputOption]
      return await execute(options, io: io)
    })

  static let formatOption = Option<String?>.value(
    "--format", short: "f", placeholder: "FORMAT",
    help: "Print the grids (text) or the combined JSON report.",
    defaultValue: "text", choices: ["text", "json"])

  static let outputDirectoryOption = Option<String?>.value(
    "--output-dir", short: "o", placeholder: "DIR", help: "Where the HTML and JSON reports go.",
    defaultValue: "./canary-reports")

  static let showAppOutputOption = Option<Bool>.flag(
    "--show-app-output", help: "Let the examples' own printing through to the terminal.")

  /// What a demo run does.
  struct Options {
    var format = "text"
    var outputDirectory = URL(fileURLWithPath: "canary-reports", isDirectory: true)
    var showAppOutput = false
    var printing = DemoScenario.PrintDestination.standardOutput
    var kinds = RequestKind.all + RequestKind.streaming
    /// Run on the examples that have a WebSocket client; the others show them as not run.
    var webSocketKinds = RequestKind.webSocket
    var scenarios = DemoScenario.all
  }

  /// Runs `canary demo` with `arguments` (after the word `demo`).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(command, arguments, commandName: "canary demo", io: io)
  }

  /// Runs every scenario, then prints and writes the results; returns the exit status.
  static func execute(_ options: Options, io: CommandIO) async -> Int32 {
    let silence = options.showAppOutput ? nil : StandardOutputSilencer()
    var outcomes: [DemoOutcome] = []
    for scenario in options.scenarios {
      let runsWebSocket = scenario.webSocket == .runs && !options.webSocketKinds.isEmpty
      let kinds = options.kinds + (runsWebSocket ? options.webSocketKinds : [])
      let report = await scenario.run(kinds, options.printing)
      var notRun: [String] = []
      if case .notRun(let reason) = scenario.webSocket, !options.webSocketKinds.isEmpty {
        notRun.append("WebSocket (\(options.webSocketKinds.map(\.name).joined(separator: ", "))): \(reason)")
      }
      outcomes.append(DemoOutcome(scenario: scenario, report: report, notRun: notRun))
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
}

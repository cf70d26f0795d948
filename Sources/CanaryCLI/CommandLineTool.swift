/// The `canary` command: dispatches to one subcommand per job.
public enum CommandLineTool {
  /// One subcommand: its name, a one-line abstract, and what it runs.
  struct Subcommand: Sendable {
    let name: String
    let abstract: String
    let run: @Sendable ([String], CommandIO) async -> Int32
  }

  static let subcommands: [Subcommand] = [
    Subcommand(
      name: "demo", abstract: "Run the canary matrix against the example apps.", run: DemoCommand.run),
    Subcommand(
      name: "scan", abstract: "Scan files, directories or stdin for a manifest's canaries.",
      run: ScanCommand.run),
    Subcommand(
      name: "patterns", abstract: "Print every literal byte string the scanner searches for.",
      run: PatternsCommand.run),
    Subcommand(
      name: "serve", abstract: "Serve scripted canary exchanges on loopback for another process.",
      run: ServeCommand.run),
    Subcommand(
      name: "init", abstract: "Write a canary suite template into your test folder.", run: InitCommand.run),
    Subcommand(
      name: "report", abstract: "Merge per-test SARIF reports into one for code scanning.",
      run: ReportCommand.run),
    Subcommand(name: "kinds", abstract: "Print the kinds an OpenAPI document or HAR file plants.", run: KindsCommand.run),
    Subcommand(
      name: "bench", abstract: "Measure CanaryTrap against reference tools (release build).",
      run: BenchCommand.run),
  ]

  /// Runs the command with `arguments` (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
      io.writeOutput(usage)
      return arguments.isEmpty ? ExitStatus.usage : ExitStatus.success
    }
    guard let subcommand = subcommands.first(where: { $0.name == name }) else {
      io.writeError("canary: unknown subcommand '\(name)'; run 'canary --help' for the list\n")
      return ExitStatus.usage
    }
    return await subcommand.run(Array(arguments.dropFirst()), io)
  }

  /// The top-level help text.
  static var usage: String {
    let width = subcommands.map(\.name.count).max() ?? 0
    let lines = subcommands.map {
      "  \($0.name)\(String(repeating: " ", count: width - $0.name.count + 2))\($0.abstract)"
    }
    return """
      canary: proves an app's networking code leaks no secret into its logs.

      USAGE: canary <subcommand> [options]

      SUBCOMMANDS:
      \(lines.joined(separator: "\n"))

      Run 'canary <subcommand> --help' for a subcommand's options.

      """
  }
}

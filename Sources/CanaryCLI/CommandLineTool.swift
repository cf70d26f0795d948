import CanaryTrap

/// The `canary` command: dispatches to one subcommand per job.
public enum CommandLineTool {
  /// The tool's version, printed by `canary --version`.
  public static let version = CanaryTrapVersion.current

  /// Every subcommand, in the order help lists them. Registering a new one is one line here
  /// plus its own file declaring `static let command = CommandSpec(...)`.
  static let subcommands: [CommandSpec] = [
    DemoCommand.command,
    ScanCommand.command,
    BaselineCommand.command,
    PatternsCommand.command,
    ManifestCommand.command,
    ServeCommand.command,
    InitCommand.command,
    ReportCommand.command,
    KindsCommand.command,
  ]

  /// `--version`, answered before any parsing (``run(_:io:)``); declared for the help.
  static let versionOption = Option<Bool>.flag("--version", help: "Print the version and exit.")

  /// The root of the command tree: `canary <subcommand>`.
  static let root = CommandSpec(
    name: "canary", abstract: "Prove an app's networking code leaks no secret into its logs.",
    options: [versionOption],
    epilogue: """
      Run 'canary help <subcommand>' or 'canary <subcommand> --help' for a subcommand's options. \
      Benchmarks are a separate executable: swift run -c release canary-bench --help.

      EXIT STATUS:
        0  success (for scan: clean)
        1  leaks found
        2  error: bad usage, bad input, or an input or output that could not be read or written
        3  inconclusive (scan): no leak, but something held nothing to look at
      """,
    subcommands: subcommands)

  /// Runs the command with `arguments` (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    if arguments == ["--version"] || arguments == ["version"] {
      return await CommandRunner.checkingOutput("canary", io) { io in
        io.writeOutput("canary \(version)\n")
        return ExitStatus.success
      }
    }
    if let first = arguments.first, first.hasPrefix("-"), !["-h", "--help"].contains(first) {
      return CommandRunner.fail(
        OptionParser.unknownOptionMessage(first, spec: root, commandName: "canary"), "canary", io)
    }
    return await CommandRunner.run(root, arguments, commandName: "canary", io: io)
  }

  /// The top-level help text.
  static var usage: String { HelpFormatter.help(for: root, commandName: "canary") }
}

/// A command of the `canary` tool, declared once: its name, what it does, its options and
/// arguments, and what it runs. The parser, its errors and the help text are generated from it.
///
/// A new subcommand is one file declaring `static let command = CommandSpec(...)` plus one line
/// in ``CommandLineTool/subcommands``.
package struct CommandSpec: Sendable {
  /// The word that selects it, such as `scan`.
  package let name: String
  /// One line for the list of subcommands.
  package let abstract: String
  /// Paragraphs shown under the usage line; may be empty.
  package let discussion: String
  package let options: [CommandOption]
  package let arguments: [CommandArgument]
  /// Text shown after the options, such as the exit statuses; may be empty.
  package let epilogue: String
  /// Commands selected by the next word (`canary report merge`, `canary-bench scan`).
  package let subcommands: [CommandSpec]
  /// What the command runs once its command line parsed; `nil` for a group of subcommands.
  package private(set) var run: (@Sendable (ParsedCommand, CommandIO) async -> Int32)?

  package init(
    name: String, abstract: String, discussion: String = "", options: [any DeclaredOption] = [],
    arguments: [CommandArgument] = [], epilogue: String = "", subcommands: [CommandSpec] = [],
    run: (@Sendable (ParsedCommand, CommandIO) async -> Int32)? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options.map(\.declaration)
    self.arguments = arguments
    self.epilogue = epilogue
    self.subcommands = subcommands
    self.run = run
  }

  /// The same command running `run` instead (a test's own stop trigger, for one).
  package func running(_ run: @escaping @Sendable (ParsedCommand, CommandIO) async -> Int32) -> CommandSpec {
    var copy = self
    copy.run = run
    return copy
  }

  /// The options help lists: the declared ones, then `-h, --help`.
  package var documentedOptions: [CommandOption] {
    options + [.flag("--help", short: "h", help: "Show this help.")]
  }

  /// The declared option named `--name` or `-x`.
  package func option(named text: String) -> CommandOption? {
    if text.hasPrefix("--") { return documentedOptions.first { $0.name == text } }
    guard text.count == 2, let letter = text.last else { return nil }
    return documentedOptions.first { $0.short == letter }
  }
}

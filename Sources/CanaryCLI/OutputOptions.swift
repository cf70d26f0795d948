import CanaryTrap
import Foundation

/// The options of every command that writes a file the user names, declared once so that each
/// command says the same thing and ``OutputFile`` applies the same rules to all.
enum OutputOptions {
  /// What every output option's help says about an existing file.
  static let rules =
    "An existing file is replaced only with --force and only once the new one is complete, keeping its"
    + " mode; a device or FIFO (/dev/null) is written in place; a directory, a file that is also an input"
    + " of the command, or one the shell's > could not write is refused."

  /// `-o, --output FILE` for a command that writes `what` (such as `the report`).
  static func output(_ what: String) -> Option<ScanPath?> {
    .path("--output", short: "o", help: "Write \(what) there instead of standard output. " + rules)
  }

  /// `--force`: replace an existing output file.
  static let force = Option<Bool>.flag(
    "--force", help: "Replace an existing output file (one the shell's > could write).")

  /// The default of `--fifo-wait`, in seconds: the wait every FIFO gets (a manifest's too).
  static let defaultFIFOWait = Int(BoundedOpen.defaultWait.components.seconds)

  /// `--fifo-wait SECONDS` for a command whose only FIFO can be its output.
  static let fifoWait = fifoWaitOption("How long a FIFO output waits for its reader")

  /// `--fifo-wait SECONDS` for a command that also reads PATHs (`scan`, `baseline`).
  static let fifoWaitForPaths = fifoWaitOption(
    "How long a FIFO waits for its other end (the writer of a FIFO PATH, the reader of a FIFO output)")

  private static func fifoWaitOption(_ what: String) -> Option<Int?> {
    .integer(
      "--fifo-wait", placeholder: "SECONDS", help: what + " before the command gives up with an error.",
      defaultValue: "\(defaultFIFOWait)", range: 0...3600)
  }

  /// The wait `--fifo-wait` asks for.
  static func fifoWaitDuration(_ parsed: ParsedCommand) -> Duration {
    .seconds(parsed[fifoWait] ?? defaultFIFOWait)
  }

  /// The file `option` names, checked against the command's `inputs` (and a device or FIFO
  /// opened), or `nil` when the option was not given.
  static func open(_ parsed: ParsedCommand, option: Option<ScanPath?>, inputs: [CommandInput]) throws
    -> OutputFile?
  {
    guard let path = parsed[option] else { return nil }
    return try OutputFile(
      path, option: option.declaration.name, force: parsed[force], inputs: inputs,
      fifoWait: fifoWaitDuration(parsed))
  }

  /// Writes `data` to `output`, or to standard output when `nil`; throws one line saying why not.
  static func write(_ data: Data, to output: OutputFile?, io: CommandIO) throws {
    if let output {
      try output.write { try $0(data) }
    } else {
      try io.writeOutputData(data)
    }
  }
}

extension BoundedOpen {
  /// What the user can do about a FIFO whose `other` end (`reader` or `writer`) never came: empty
  /// for any other failure.
  static func hint(_ failure: BoundedOpen.Failure, other: String) -> String {
    failure.timedOut ? " (start the \(other) first, or raise --fifo-wait)" : ""
  }
}

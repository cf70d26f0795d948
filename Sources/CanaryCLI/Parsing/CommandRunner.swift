import CanaryTrap
import CanaryTrapPrimitives
import Foundation

/// Runs a command line through a tree of ``CommandSpec``s: picks the subcommand, parses its
/// options, prints generated help, and reports every mistake in one error style.
package enum CommandRunner {
  /// Runs `arguments` (after `commandName`'s own words) against `spec`; returns the exit status.
  /// Every standard-output write is checked: a command whose output could not be written (a
  /// full disk, a closed pipe) exits 2 and says so, whatever it would have returned.
  package static func run(_ spec: CommandSpec, _ arguments: [String], commandName: String, io: CommandIO)
    async -> Int32
  {
    if !spec.subcommands.isEmpty {
      if let first = arguments.first, let child = spec.subcommands.first(where: { $0.name == first }) {
        return await run(child, Array(arguments.dropFirst()), commandName: "\(commandName) \(first)", io: io)
      }
      if spec.run == nil {
        return await checkingOutput(commandName, io) { io in
          guard let first = arguments.first else {
            io.writeOutput(HelpFormatter.help(for: spec, commandName: commandName))
            return ExitStatus.usage
          }
          if first == "-h" || first == "--help" {
            io.writeOutput(HelpFormatter.help(for: spec, commandName: commandName))
            return ExitStatus.success
          }
          if first == "help" {
            return help(spec, path: Array(arguments.dropFirst()), commandName: commandName, io: io)
          }
          return fail(unknownSubcommandMessage(first, of: spec, commandName: commandName), commandName, io)
        }
      }
    }
    return await checkingOutput(commandName, io) { io in
      await runLeaf(spec, arguments, commandName: commandName, io: io)
    }
  }

  /// Runs `body` with `io`'s standard-output failures kept; the first one, if the command did not
  /// already fail with exit status 2, is reported and makes the status 2.
  package static func checkingOutput(
    _ commandName: String, _ io: CommandIO, _ body: (CommandIO) async -> Int32
  ) async -> Int32 {
    let failure = Locked<String?>(nil)
    let status = await body(io.keepingOutputFailures(in: failure))
    guard let reason = failure.current, status != ExitStatus.usage else { return status }
    return fail(reason, commandName, io)
  }

  /// Parses and runs a command that has no subcommand named by `arguments`.
  private static func runLeaf(_ spec: CommandSpec, _ arguments: [String], commandName: String, io: CommandIO)
    async -> Int32
  {
    let outcome: OptionParser.Outcome
    do {
      outcome = try OptionParser.parse(
        arguments, bytes: io.argumentBytes, spec: spec, commandName: commandName)
    } catch {
      return fail(error.description, commandName, io)
    }
    switch outcome {
    case .help:
      io.writeOutput(HelpFormatter.help(for: spec, commandName: commandName))
      return ExitStatus.success
    case .run(let parsed):
      guard let run = spec.run else { return ExitStatus.usage }
      return await run(parsed, io)
    }
  }

  /// `help SUB [SUB…]`: the help of the named subcommand, exit 0; an unknown name is an error.
  package static func help(_ spec: CommandSpec, path: [String], commandName: String, io: CommandIO) -> Int32 {
    var current = spec
    var name = commandName
    for word in path {
      guard let child = current.subcommands.first(where: { $0.name == word }) else {
        return fail(unknownSubcommandMessage(word, of: current, commandName: name), commandName, io)
      }
      current = child
      name += " " + word
    }
    io.writeOutput(HelpFormatter.help(for: current, commandName: name))
    return ExitStatus.success
  }

  /// `unknown subcommand 'scna'; did you mean 'scan'? Run 'canary --help' for the list.`
  package static func unknownSubcommandMessage(_ word: String, of spec: CommandSpec, commandName: String)
    -> String
  {
    let message = "unknown subcommand '\(word)'"
    if let suggestion = OptionParser.closest(to: word, among: spec.subcommands.map(\.name)) {
      return message + "; did you mean '\(suggestion)'? Run '\(commandName) --help' for the list."
    }
    return message + ". Run '\(commandName) --help' for the list."
  }

  /// Writes `canary scan: <message>` as one line on standard error and returns exit status 2.
  @discardableResult
  package static func fail(_ message: String, _ commandName: String, _ io: CommandIO) -> Int32 {
    complain(message, commandName, io)
    return ExitStatus.usage
  }

  /// Writes one line on standard error, with any control character escaped (`\x1B`) so that
  /// text from the command line or a file name cannot drive the terminal.
  package static func complain(_ message: String, _ commandName: String, _ io: CommandIO) {
    var line = "\(commandName): "
    for scalar in message.unicodeScalars {
      if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
        line += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
      } else {
        line.unicodeScalars.append(scalar)
      }
    }
    io.writeError(line + "\n")
  }
}

import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// Captures what a command writes, for assertions.
final class RecordingIO: Sendable {
  private let output = Locked("")
  private let error = Locked("")
  let input: Data

  init(input: Data = Data()) { self.input = input }

  var io: CommandIO {
    CommandIO(
      writeOutput: { text in self.output.withLock { $0 += text } },
      writeError: { text in self.error.withLock { $0 += text } },
      readInput: { self.input })
  }

  var standardOutput: String { output.current }
  var standardError: String { error.current }
}

@Suite struct CommandLineToolTests {
  @Test func helpListsEverySubcommandWithItsAbstract() async {
    let captured = RecordingIO()
    let status = await CommandLineTool.run(["--help"], io: captured.io)
    #expect(status == ExitStatus.success)
    for subcommand in CommandLineTool.subcommands {
      #expect(captured.standardOutput.contains(subcommand.name))
      #expect(captured.standardOutput.contains(subcommand.abstract))
    }
  }

  @Test func noArgumentsPrintsUsageAndExitsTwo() async {
    let captured = RecordingIO()
    #expect(await CommandLineTool.run([], io: captured.io) == ExitStatus.usage)
    #expect(captured.standardOutput.contains("USAGE: canary <subcommand>"))
  }

  @Test func unknownSubcommandIsAUsageErrorWithOneLineReason() async {
    let captured = RecordingIO()
    #expect(await CommandLineTool.run(["scna"], io: captured.io) == ExitStatus.usage)
    #expect(captured.standardError == "canary: unknown subcommand 'scna'; run 'canary --help' for the list\n")
  }
}

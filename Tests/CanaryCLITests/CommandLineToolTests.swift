import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

@Suite struct CommandLineToolTests {
  @Test func helpListsEverySubcommandWithItsAbstract() async {
    let captured = CapturedIO()
    let status = await CommandLineTool.run(["--help"], io: captured.io)
    #expect(status == ExitStatus.success)
    for subcommand in CommandLineTool.subcommands {
      #expect(captured.standardOutput.contains(subcommand.name))
      #expect(captured.standardOutput.contains(subcommand.abstract))
    }
  }

  @Test func noArgumentsPrintsUsageAndExitsTwo() async {
    let captured = CapturedIO()
    #expect(await CommandLineTool.run([], io: captured.io) == ExitStatus.usage)
    #expect(captured.standardOutput.contains("USAGE: canary <subcommand>"))
  }

  @Test func unknownSubcommandIsAUsageErrorWithOneLineReason() async {
    let captured = CapturedIO()
    #expect(await CommandLineTool.run(["scna"], io: captured.io) == ExitStatus.usage)
    #expect(
      captured.standardError
        == "canary: unknown subcommand 'scna'; did you mean 'scan'? Run 'canary --help' for the list.\n")
  }
}

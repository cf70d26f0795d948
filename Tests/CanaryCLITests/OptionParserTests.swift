import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// The table-driven parser: every spelling of an option, `--` and `-`, and one error style that
/// names the bad argument.
@Suite struct OptionParserTests {
  static let output = Option<String?>.value("--output", short: "o", placeholder: "FILE", help: "Where.")
  static let format = Option<String?>.value(
    "--format", short: "f", placeholder: "FORMAT", help: "How.", choices: ["text", "json"])
  static let maxFindings = Option<Int?>.integer("--max-findings", help: "How many.", range: 1...10)
  static let tag = Option<[String]>.repeated("--tag", placeholder: "T", help: "Repeatable.")
  static let force = Option<Bool>.flag("--force", help: "Really.")

  static let spec = CommandSpec(
    name: "try", abstract: "A command to parse against.",
    options: [output, format, maxFindings, tag, force],
    arguments: [CommandArgument("PATH", help: "Paths.", required: false, repeating: true)])

  func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedCommand {
    switch try OptionParser.parse(arguments, spec: Self.spec, commandName: "canary try") {
    case .run(let parsed): return parsed
    case .help: throw CommandLineError("help")
    }
  }

  func error(_ arguments: [String]) -> String {
    do {
      _ = try parse(arguments)
      return ""
    } catch {
      return error.description
    }
  }

  @Test func everySpellingOfAValueIsTheSame() throws {
    for arguments in [["--output", "r.txt"], ["--output=r.txt"], ["-o", "r.txt"], ["-or.txt"]] {
      #expect(try parse(arguments)[Self.output] == "r.txt", "\(arguments)")
    }
    #expect(try parse(["--output=a=b"])[Self.output] == "a=b")
    #expect(try parse(["--output="])[Self.output] == "")
  }

  @Test func flagsRepeatsAndLastValueWins() throws {
    let parsed = try parse(["--force", "--tag", "a", "--tag=b", "-f", "text", "--format", "json"])
    #expect(parsed[Self.force])
    #expect(parsed[Self.tag] == ["a", "b"])
    #expect(parsed[Self.format] == "json")
    #expect(!(try parse([]))[Self.force])
  }

  @Test func doubleDashEndsOptionsAndDashIsAnArgument() throws {
    let parsed = try parse(["a", "-", "--", "--force", "-h"])
    #expect(parsed.positionals == ["a", "-", "--force", "-h"])
    #expect(!parsed[Self.force])
  }

  @Test func helpWinsAnywhereBeforeDoubleDash() throws {
    for arguments in [["--help"], ["-h"], ["--force", "--help"], ["-h", "--max-findings", "0"]] {
      guard case .help = try OptionParser.parse(arguments, spec: Self.spec, commandName: "canary try")
      else {
        Issue.record("\(arguments) did not ask for help")
        continue
      }
    }
  }

  @Test func everyMistakeNamesTheBadArgument() {
    #expect(
      error(["--max-finding", "3"])
        == "unknown option '--max-finding'; did you mean '--max-findings'? See 'canary try --help'.")
    #expect(error(["--zzzzzzzz"]) == "unknown option '--zzzzzzzz'. See 'canary try --help'.")
    #expect(error(["-x"]).hasPrefix("unknown option '-x'"))
    #expect(error(["--output"]) == "--output needs a value (FILE)")
    #expect(error(["--force=yes"]) == "--force takes no value, but was given 'yes'")
    #expect(error(["--format", "xml"]) == "--format must be one of text|json, not 'xml'")
    #expect(error(["--max-findings", "0"]) == "--max-findings needs a number from 1 to 10, not '0'")
    #expect(error(["--max-findings=ten"]) == "--max-findings needs a number from 1 to 10, not 'ten'")
  }

  @Test func positionalArgumentsAreCounted() async {
    let captured = CapturedIO()
    #expect(await CommandLineTool.run(["patterns", "--manifest", "m.json", "stray"], io: captured.io) == 2)
    #expect(captured.standardError == "canary patterns: unexpected argument 'stray'\n")
    let missing = CapturedIO()
    #expect(await CommandLineTool.run(["report", "merge"], io: missing.io) == 2)
    #expect(missing.standardError == "canary report merge: missing DIR\n")
  }

  @Test func typoSuggestionsAreOnlyForNearWords() {
    #expect(OptionParser.closest(to: "--outptu", among: ["--output", "--format"]) == "--output")
    #expect(OptionParser.closest(to: "--colour", among: ["--output", "--format"]) == nil)
    #expect(OptionParser.editDistance("kitten", "sitting") == 3)
    #expect(OptionParser.editDistance(String(repeating: "a", count: 100), "a") == Int.max)
  }
}

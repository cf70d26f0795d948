import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// Help is generated from each command's declaration: every declared option appears in it, every
/// subcommand's `--help` exits 0 (in process and as the built executable), and `help SUB`,
/// `--version` and `version` work.
@Suite struct GeneratedHelpTests {
  /// Every command of the tree with its full name, depth first.
  static func allCommands(_ spec: CommandSpec = CommandLineTool.root, name: String = "canary")
    -> [(name: String, words: [String], spec: CommandSpec)]
  {
    var result: [(name: String, words: [String], spec: CommandSpec)] = []
    for child in spec.subcommands {
      let childName = "\(name) \(child.name)"
      let words = Array(childName.split(separator: " ").dropFirst().map(String.init))
      result.append((name: childName, words: words, spec: child))
      result += allCommands(child, name: childName)
    }
    return result
  }

  @Test func everyDeclaredOptionAppearsInItsHelp() async {
    #expect(Self.allCommands().count >= 9)
    for (name, words, spec) in Self.allCommands() {
      let captured = CapturedIO()
      let status = await CommandLineTool.run(words + ["--help"], io: captured.io)
      #expect(status == ExitStatus.success, "\(name) --help")
      let help = captured.standardOutput
      #expect(help.contains("USAGE: \(name)"), "\(name)")
      #expect(help.contains(spec.abstract), "\(name)")
      for option in spec.documentedOptions {
        #expect(help.contains(option.synopsis), "\(name) help lacks \(option.synopsis)")
        if let defaultValue = option.defaultValue {
          #expect(help.contains("(default: \(defaultValue))"), "\(name) \(option.name)")
        }
      }
      for argument in spec.arguments { #expect(help.contains(argument.synopsis), "\(name) \(argument.name)") }
      for line in help.split(separator: "\n") {
        #expect(line.count <= HelpFormatter.width, "\(name): a help line is \(line.count) wide: \(line)")
      }
      let shortHelp = CapturedIO()
      #expect(await CommandLineTool.run(words + ["-h"], io: shortHelp.io) == ExitStatus.success)
      #expect(shortHelp.standardOutput == help)
      let helpCommand = CapturedIO()
      #expect(await CommandLineTool.run(["help"] + words, io: helpCommand.io) == ExitStatus.success)
      #expect(helpCommand.standardOutput == help, "canary help \(words.joined(separator: " "))")
    }
  }

  /// Text a help must never show: a Swift interpolation left literal (`\(` in a raw string),
  /// or a line continuation escaped into a literal backslash before a space or a line break.
  static func sourceEscapes(in help: String) -> [String] {
    help.split(separator: "\n").map(String.init).filter { line in
      line.contains("\\(") || line.hasSuffix("\\") || line.contains("\\ ")
    }
  }

  @Test func noHelpShowsASourceCodeEscape() async throws {
    #expect(Self.sourceEscapes(in: "at least \\(CanaryManifest.minimumValueLength) bytes").count == 1)
    #expect(Self.sourceEscapes(in: "reports \\\nwritten").count == 1)
    #expect(Self.sourceEscapes(in: "bytes as \\xHH and backslash as \\\\.").isEmpty)
    for words in [[]] + Self.allCommands().map(\.words) {
      let captured = CapturedIO()
      #expect(await CommandLineTool.run(words + ["--help"], io: captured.io) == ExitStatus.success)
      let bad = Self.sourceEscapes(in: captured.standardOutput)
      #expect(bad.isEmpty, "canary \(words.joined(separator: " ")) --help shows: \(bad)")
    }
    let canary = try #require(
      CanaryExecutableLookup.shared.url, "\(CanaryExecutableLookup.shared.explanation)")
    let bench = canary.deletingLastPathComponent().appendingPathComponent("canary-bench")
    for words in [[], ["scan"], ["scan-gzip"], ["serve"], ["soak"], ["matrix"], ["load"]] {
      let result = try Self.run(bench, words + ["--help"])
      #expect(result.status == 0, "canary-bench \(words) --help: \(result.error)")
      let bad = Self.sourceEscapes(in: result.output)
      #expect(bad.isEmpty, "canary-bench \(words.joined(separator: " ")) --help shows: \(bad)")
    }
  }

  @Test func everyShortNameIsUniqueWithinACommand() {
    for (name, _, spec) in Self.allCommands() {
      let shorts = spec.documentedOptions.compactMap(\.short)
      #expect(Set(shorts).count == shorts.count, "\(name) declares a short name twice")
      let longs = spec.documentedOptions.map(\.name)
      #expect(Set(longs).count == longs.count, "\(name) declares an option twice")
    }
  }

  @Test func versionAndHelpOfUnknownSubcommand() async {
    for arguments in [["--version"], ["version"]] {
      let captured = CapturedIO()
      #expect(await CommandLineTool.run(arguments, io: captured.io) == ExitStatus.success)
      #expect(captured.standardOutput == "canary \(CommandLineTool.version)\n")
    }
    let unknown = CapturedIO()
    #expect(await CommandLineTool.run(["help", "scna"], io: unknown.io) == ExitStatus.usage)
    #expect(unknown.standardError.contains("unknown subcommand 'scna'; did you mean 'scan'?"))
    let option = CapturedIO()
    #expect(await CommandLineTool.run(["--verison"], io: option.io) == ExitStatus.usage)
    #expect(option.standardError.contains("did you mean '--version'?"))
  }

  /// The built executables: every subcommand's `--help` exits 0 with the help on standard output,
  /// and so does every benchmark's.
  @Test func builtExecutablesAnswerHelpForEverySubcommand() throws {
    let canary = try #require(
      CanaryExecutableLookup.shared.url, "\(CanaryExecutableLookup.shared.explanation)")
    for (name, words, _) in Self.allCommands() {
      let result = try Self.run(canary, words + ["--help"])
      #expect(result.status == 0, "\(name) --help exited \(result.status): \(result.error)")
      #expect(result.output.contains("USAGE: \(name)"), "\(name)")
    }
    let bench = canary.deletingLastPathComponent().appendingPathComponent("canary-bench")
    try #require(
      FileManager.default.isExecutableFile(atPath: bench.path),
      "canary-bench is not beside canary at \(bench.path)")
    for words in [["--help"], ["help"], ["scan", "--help"], ["soak", "--help"], ["matrix", "-h"]] {
      let result = try Self.run(bench, words)
      #expect(result.status == 0, "canary-bench \(words) exited \(result.status): \(result.error)")
      #expect(result.output.contains("USAGE: canary-bench"), "\(words)")
    }
    let wrong = try Self.run(bench, ["sacn"])
    #expect(wrong.status == 2)
    #expect(wrong.error.contains("did you mean 'scan'?"))
  }

  /// `scan`, `scan-gzip`, `serve` and `soak` declare their options: generated help naming each,
  /// and errors naming the bad argument before anything is measured.
  @Test func everyBenchmarkDeclaresItsOptions() throws {
    let canary = try #require(
      CanaryExecutableLookup.shared.url, "\(CanaryExecutableLookup.shared.explanation)")
    let bench = canary.deletingLastPathComponent().appendingPathComponent("canary-bench")
    try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no canary-bench at \(bench.path)")
    let declared = [
      "scan": [
        "--size MB", "--counts LIST", "--repeat N", "--no-rg", "--no-hyperscan", "--hyperscan-script PATH",
        "--keep",
      ],
      "scan-gzip": ["--size MB", "--count N", "--repeat N", "--keep"],
      "serve": ["--duration D", "--threads N", "--connections N", "--requests N", "--no-record"],
      "soak": [
        "--duration SECONDS", "--abuse-duration SECONDS", "--connections N", "--threads N", "--slowloris N",
        "--slowloris-interval SECONDS", "--descriptor-limit N",
      ],
    ]
    for (name, options) in declared {
      let help = try Self.run(bench, [name, "--help"])
      #expect(help.status == 0, "\(name) --help: \(help.error)")
      #expect(help.output.hasPrefix("OVERVIEW: "), "\(name): generated help")
      for option in options { #expect(help.output.contains(option), "\(name) --help lacks \(option)") }
    }
    let wrong: [([String], String)] = [
      (
        ["scan", "--counts", "3,4"],
        "canary-bench scan: --counts needs numbers of at least 5, like 10,100,1000, not '3,4'"
      ),
      (["scan-gzip", "--count", "5"], "canary-bench scan-gzip: --count needs a number from 6 to"),
      (["serve", "--duraton", "5s"], "unknown option '--duraton'; did you mean '--duration'?"),
      (["serve", "--duration", "soon"], "--duration needs a length such as 10s or 1m, not 'soon'"),
      (["soak", "--threads", "x"], "canary-bench soak: --threads needs a number from 1 to 1024, not 'x'"),
      (["soak", "--slowloris"], "--slowloris"),
    ]
    for (words, message) in wrong {
      let result = try Self.run(bench, words)
      #expect(result.status == 2, "\(words) exited \(result.status)")
      #expect(result.error.contains(message), "\(words): \(result.error)")
      #expect(result.output.isEmpty, "\(words) measured something: \(result.output)")
    }
  }

  static func run(_ executable: URL, _ arguments: [String]) throws -> (
    status: Int32, output: String, error: String
  ) {
    let process = TestProcess()
    process.executableURL = executable
    process.arguments = arguments
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("help-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("out")
    let error = directory.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: error.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: error)
    process.standardInput = FileHandle.nullDevice
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    return (
      process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "",
      (try? String(contentsOf: error, encoding: .utf8)) ?? ""
    )
  }
}

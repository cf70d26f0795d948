import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `canary init`: write a canary suite template into your test folder.
enum InitCommand {
  static let command = CommandSpec(
    name: "init", abstract: "Write a canary suite template into your test folder.",
    discussion: """
      Writes a canary suite template for one request kind into DIR (default: the current \
      directory). Templates import only CanaryTrapTesting and carry a stand-in client; replace the \
      code marked `// Replace with your API client` with your app's client. 'canary init --list' \
      prints every kind and what it plants.
      """,
    options: [xctestOption, outputOption, forceOption, listOption],
    arguments: [
      CommandArgument(
        "KIND", help: "The request kind: \(TemplateCatalog.kinds.map(\.name).joined(separator: ", ")).",
        required: false)
    ],
    run: { parsed, io in execute(parsed, io: io) })

  static let xctestOption = Option<Bool>.flag(
    "--xctest", help: "Write the XCTest flavour instead of the Swift Testing one.")

  static let outputOption = Option<String?>.value(
    "--output", short: "o", placeholder: "DIR", help: "The test folder to write into (created if missing).",
    defaultValue: ".")

  static let forceOption = Option<Bool>.flag(
    "--force",
    help: "Replace an existing file of the same name (one the shell's > could write; its mode is kept).")

  static let listOption = Option<Bool>.flag("--list", help: "Print every kind and what it plants.")

  /// Runs `canary init` with `arguments` (after the word `init`).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(command, arguments, commandName: "canary init", io: io)
  }

  static func execute(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    if parsed[listOption] {
      let width = TemplateCatalog.kinds.map(\.name.count).max() ?? 0
      for kind in TemplateCatalog.kinds {
        let padding = String(repeating: " ", count: width - kind.name.count + 2)
        io.writeOutput("\(kind.name)\(padding)\(kind.summary)\n")
      }
      return ExitStatus.success
    }
    guard let kindName = parsed.positionals.first else { return fail("missing KIND", io: io) }
    guard let kind = TemplateCatalog.kind(named: kindName) else {
      let names = TemplateCatalog.kinds.map(\.name).joined(separator: ", ")
      return fail("unknown kind '\(kindName)'; choose one of: \(names)", io: io)
    }
    let xctest = parsed[xctestOption]
    guard let source = TemplateCatalog.source(of: kind, xctest: xctest) else {
      return fail("the \(kind.name) template is missing from this build", io: io)
    }
    return write(
      source, named: kind.fileName(xctest: xctest), into: parsed[outputOption] ?? ".",
      force: parsed[forceOption], io: io)
  }

  /// Writes the template file through the same checks as every output, and prints where it went.
  private static func write(
    _ source: String, named fileName: String, into directory: String, force: Bool, io: CommandIO
  ) -> Int32 {
    let folder = ScanPath(directory)
    let file = folder.appending(Array(fileName.utf8))
    do {
      var info = stat()
      if folder.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
        throw OutputFile.refusal(
          outputOption.declaration.name, folder, "it is not a directory; name the test folder")
      }
      do {
        try FileManager.default.createDirectory(
          at: URL(fileURLWithPath: directory, isDirectory: true), withIntermediateDirectories: true)
      } catch {
        throw ScanUsageError(
          description: "cannot create \(folder.displayName): \(error.localizedDescription)")
      }
      let output = try OutputFile(
        file, option: outputOption.declaration.name, force: force, inputs: [], fifoWait: .zero)
      try output.write { try $0(Data(source.utf8)) }
    } catch {
      return fail("\(error)", io: io)
    }
    io.writeOutput(
      "Wrote \(file.displayName)\nReplace the code marked `// Replace with your API client` with your app's client.\n"
    )
    return ExitStatus.success
  }

  private static func fail(_ reason: String, io: CommandIO) -> Int32 {
    CommandRunner.fail(reason, "canary init", io)
  }
}

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
      prints every kind and what it plants. 'canary init --xcode-templates DIR' writes every kind \
      as an Xcode file template instead.
      """,
    options: [xctestOption, outputOption, forceOption, listOption, xcodeTemplatesOption],
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

  static let xcodeTemplatesOption = Option<String?>.value(
    "--xcode-templates", placeholder: "DIR",
    help: """
      Write every kind as an Xcode file template (both flavours) into DIR instead of one suite, \
      such as "\(XcodeTemplates.suggestedFolder)" (created if missing; a leading ~/ is your home).
      """)

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
    if let folder = parsed[xcodeTemplatesOption] {
      guard parsed.positionals.isEmpty else {
        return fail("\(xcodeTemplatesOption.declaration.name) writes every kind; give no KIND", io: io)
      }
      return writeXcodeTemplates(into: folder, force: parsed[forceOption], io: io)
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
    let file = ScanPath(directory).appending(Array(fileName.utf8))
    do {
      try makeFolder(directory, option: outputOption.declaration.name, naming: "the test folder")
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

  /// Writes every kind's Xcode file template into `directory`. Without `--force`, every existing
  /// file is checked before any is written, so one refused leaves the folder as it was.
  private static func writeXcodeTemplates(into directory: String, force: Bool, io: CommandIO) -> Int32 {
    let option = xcodeTemplatesOption.declaration.name
    let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    let root = directory.hasPrefix("~/") ? home + directory.dropFirst(1) : directory
    let files: [XcodeTemplates.File]
    switch XcodeTemplates.files() {
    case .success(let all): files = all
    case .failure(let missing): return fail("the \(missing.kind) template is missing from this build", io: io)
    }
    let paths = files.map { root + "/" + $0.path }
    do {
      // An existing file is refused without --force before anything is written.
      if !force {
        for path in paths where FileManager.default.fileExists(atPath: path) {
          _ = try OutputFile(ScanPath(path), option: option, force: false, inputs: [], fifoWait: .zero)
        }
      }
      for (file, path) in zip(files, paths) {
        try makeFolder(String(path[..<path.lastIndex(of: "/")!]), option: option, naming: "a folder")
        let output = try OutputFile(ScanPath(path), option: option, force: force, inputs: [], fifoWait: .zero)
        try output.write { try $0(Data(file.text.utf8)) }
      }
    } catch {
      return fail("\(error)", io: io)
    }
    let count = TemplateCatalog.kinds.count
    io.writeOutput(
      "Wrote \(count) Xcode file templates into \(ScanPath(root).displayName)\n"
        + "In Xcode: File > New > File..., section CanaryTrap (the folder must be under "
        + "~/Library/Developer/Xcode/Templates/File Templates).\n")
    return ExitStatus.success
  }

  /// Creates `directory` and its parents, refusing a path that exists and is not a directory
  /// (the message asks to name `what` instead).
  private static func makeFolder(_ directory: String, option: String, naming what: String) throws {
    let folder = ScanPath(directory)
    var info = stat()
    if folder.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
      throw OutputFile.refusal(option, folder, "it is not a directory; name \(what)")
    }
    do {
      try FileManager.default.createDirectory(
        at: URL(fileURLWithPath: directory, isDirectory: true), withIntermediateDirectories: true)
    } catch {
      throw ScanUsageError(description: "cannot create \(folder.displayName): \(error.localizedDescription)")
    }
  }

  private static func fail(_ reason: String, io: CommandIO) -> Int32 {
    CommandRunner.fail(reason, "canary init", io)
  }
}

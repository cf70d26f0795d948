import Foundation

/// `canary init`: write a canary suite template into your test folder.
enum InitCommand {
  static let usage = """
    USAGE: canary init KIND [--xctest] [--output DIR] [--force]
           canary init --list

    Writes a canary suite template for one request kind into DIR (default: the current
    directory). Templates import only CanaryTrapTesting and carry a stand-in client; replace the
    code marked `// Replace with your API client` with your app's client.

    OPTIONS:
      --xctest        Write the XCTest flavour instead of the Swift Testing one.
      --output DIR    The test folder to write into (created if missing).
      --force         Replace an existing file of the same name.
      --list          Print every kind and what it plants.
      -h, --help      Show this help.

    KINDS:
    \(TemplateCatalog.kinds.map { "  \($0.name)" }.joined(separator: "\n"))

    """

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    var kindName: String?
    var xctest = false
    var force = false
    var output = "."
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        io.writeOutput(usage)
        return ExitStatus.success
      case "--list":
        let width = TemplateCatalog.kinds.map(\.name.count).max() ?? 0
        for kind in TemplateCatalog.kinds {
          let padding = String(repeating: " ", count: width - kind.name.count + 2)
          io.writeOutput("\(kind.name)\(padding)\(kind.summary)\n")
        }
        return ExitStatus.success
      case "--xctest":
        xctest = true
      case "--force":
        force = true
      case "--output", "-o":
        guard let directory = remaining.popFirst() else {
          return fail("--output needs a directory", io: io)
        }
        output = directory
      default:
        if argument.hasPrefix("-") { return fail("unknown option '\(argument)'", io: io) }
        if kindName != nil { return fail("give one KIND, got '\(kindName!)' and '\(argument)'", io: io) }
        kindName = argument
      }
    }
    guard let kindName else { return fail("missing KIND", io: io) }
    guard let kind = TemplateCatalog.kind(named: kindName) else {
      let names = TemplateCatalog.kinds.map(\.name).joined(separator: ", ")
      return fail("unknown kind '\(kindName)'; choose one of: \(names)", io: io)
    }
    guard let source = TemplateCatalog.source(of: kind, xctest: xctest) else {
      return fail("the \(kind.name) template is missing from this build", io: io)
    }
    return write(source, named: kind.fileName(xctest: xctest), into: output, force: force, io: io)
  }

  /// Writes the template file and prints where it went.
  private static func write(
    _ source: String, named fileName: String, into directory: String, force: Bool, io: CommandIO
  ) -> Int32 {
    let folder = URL(fileURLWithPath: directory, isDirectory: true)
    let file = folder.appendingPathComponent(fileName)
    if !force, FileManager.default.fileExists(atPath: file.path) {
      return fail("\(file.path) exists; pass --force to replace it", io: io)
    }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(source.utf8).write(to: file, options: .atomic)
    } catch {
      return fail("cannot write \(file.path): \(error.localizedDescription)", io: io)
    }
    io.writeOutput(
      "Wrote \(file.path)\nReplace the code marked `// Replace with your client` with your app's client.\n")
    return ExitStatus.success
  }

  private static func fail(_ reason: String, io: CommandIO) -> Int32 {
    io.writeError("canary init: \(reason)\n")
    return ExitStatus.usage
  }
}

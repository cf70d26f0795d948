import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// The repository folder holding the template files, found from this file's path.
private let templatesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Templates/Tests")

@Suite struct InitCommandTests {
  private func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("canary-init-test-\(UUID().uuidString)")
  }

  private func onDisk(_ kind: TemplateCatalog.Kind, xctest: Bool) throws -> String {
    let folder = templatesFolder.appendingPathComponent(xctest ? "XCTest" : "SwiftTesting")
    return try String(
      contentsOf: folder.appendingPathComponent(kind.fileName(xctest: xctest)), encoding: .utf8)
  }

  @Test func everyEmbeddedTemplateMatchesItsFileInTemplates() throws {
    for kind in TemplateCatalog.kinds {
      for xctest in [false, true] {
        let embedded = TemplateCatalog.source(of: kind, xctest: xctest)
        #expect(
          embedded == (try onDisk(kind, xctest: xctest)),
          "\(kind.fileName(xctest: xctest)) is stale: run Templates/generate.sh")
      }
    }
    #expect(TemplateSources.files.count == TemplateCatalog.kinds.count * 2)
  }

  @Test(arguments: [false, true])
  func writesTheTemplateIntoTheFolder(xctest: Bool) async throws {
    let directory = temporaryDirectory().appendingPathComponent("Tests/AppTests")
    defer {
      try? FileManager.default.removeItem(
        at: directory.deletingLastPathComponent().deletingLastPathComponent())
    }
    let captured = CapturedIO()
    let arguments = ["token-refresh", "--output", directory.path] + (xctest ? ["--xctest"] : [])

    let status = await InitCommand.run(arguments, io: captured.io)

    #expect(status == ExitStatus.success, "\(captured.standardError)")
    let kind = try #require(TemplateCatalog.kind(named: "token-refresh"))
    let written = directory.appendingPathComponent(kind.fileName(xctest: xctest))
    #expect(try String(contentsOf: written, encoding: .utf8) == (try onDisk(kind, xctest: xctest)))
    #expect(captured.standardOutput.contains(written.path))
  }

  @Test func refusesToOverwriteWithoutForce() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let existing = directory.appendingPathComponent("GraphQLLeakTests.swift")
    try Data("// mine\n".utf8).write(to: existing)
    let captured = CapturedIO()

    #expect(
      await InitCommand.run(["graphql", "--output", directory.path], io: captured.io) == ExitStatus.usage)
    #expect(try String(contentsOf: existing, encoding: .utf8) == "// mine\n")
    #expect(captured.standardError.contains("--force"))
    #expect(
      await InitCommand.run(["graphql", "-o", directory.path, "--force"], io: captured.io)
        == ExitStatus.success)
    #expect(try String(contentsOf: existing, encoding: .utf8).contains("struct GraphQLLeakTests"))
  }

  @Test func listsEveryKindAndRejectsBadInput() async {
    let captured = CapturedIO()
    #expect(await InitCommand.run(["--list"], io: captured.io) == ExitStatus.success)
    for kind in TemplateCatalog.kinds { #expect(captured.standardOutput.contains(kind.name)) }
    #expect(await InitCommand.run([], io: captured.io) == ExitStatus.usage)
    #expect(await InitCommand.run(["soap"], io: captured.io) == ExitStatus.usage)
    #expect(await InitCommand.run(["graphql", "--output"], io: captured.io) == ExitStatus.usage)
    #expect(await InitCommand.run(["graphql", "--swift"], io: captured.io) == ExitStatus.usage)
    #expect(captured.standardError.contains("missing KIND"))
    #expect(captured.standardError.contains("unknown kind 'soap'; choose one of: sign-in, json-api"))
  }

  @Test func writesEveryXcodeTemplateFromTheEmbeddedSources() async throws {
    let directory = temporaryDirectory().appendingPathComponent("File Templates/CanaryTrap")
    defer {
      try? FileManager.default.removeItem(
        at: directory.deletingLastPathComponent().deletingLastPathComponent())
    }
    let captured = CapturedIO()

    #expect(
      await InitCommand.run(["--xcode-templates", directory.path], io: captured.io) == ExitStatus.success,
      "\(captured.standardError)")

    let templates = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(templates == TemplateCatalog.kinds.map(XcodeTemplates.folderName(of:)).sorted())
    for kind in TemplateCatalog.kinds {
      let folder = directory.appendingPathComponent(XcodeTemplates.folderName(of: kind))
      let info = try Data(contentsOf: folder.appendingPathComponent("TemplateInfo.plist"))
      #expect(String(decoding: info, as: UTF8.self) == XcodeTemplates.info(of: kind))
      #expect(String(decoding: info, as: UTF8.self).contains("<string>\(kind.suiteName)</string>"))
      for (flavour, xctest) in [("Swift Testing", false), ("XCTest", true)] {
        let source = try String(
          contentsOf: folder.appendingPathComponent("\(flavour)/___FILEBASENAME___.swift"), encoding: .utf8)
        let typeName = String(kind.fileName(xctest: xctest).dropLast(".swift".count))
        #expect(source.contains("___FILEBASENAMEASIDENTIFIER___"), "\(kind.name)/\(flavour)")
        #expect(!source.contains(typeName), "\(kind.name)/\(flavour) still names \(typeName)")
        #expect(
          source.replacingOccurrences(of: "___FILEBASENAMEASIDENTIFIER___", with: typeName)
            == (try onDisk(kind, xctest: xctest)), "\(kind.name)/\(flavour)")
      }
    }
    #expect(captured.standardOutput.contains("Wrote \(TemplateCatalog.kinds.count) Xcode file templates"))
  }

  @Test func everyXcodeTemplateInfoIsAValidPropertyList() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let plists = try TemplateCatalog.kinds.map { kind in
      let file = directory.appendingPathComponent("\(kind.name).plist")
      try Data(XcodeTemplates.info(of: kind).utf8).write(to: file)
      return file.path
    }
    let check: (tool: String, arguments: [String])
    if let xmllint = ExternalTools.path(of: "xmllint") {
      check = (xmllint, ["--noout"] + plists)
    } else if let python = ExternalTools.require("python3", for: "checking TemplateInfo.plist (no xmllint)") {
      let script = "import plistlib, sys\nfor path in sys.argv[1:]:\n    plistlib.load(open(path, 'rb'))\n"
      check = (python, ["-c", script] + plists)
    } else {
      return
    }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: check.tool)
    process.arguments = check.arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try ChildProcessLaunch.run(process)
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(check.tool): \(output)")
  }

  @Test func xcodeTemplatesAreNotOverwrittenWithoutForce() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let kind = try #require(TemplateCatalog.kind(named: "graphql"))
    let mine = directory.appendingPathComponent("\(XcodeTemplates.folderName(of: kind))/TemplateInfo.plist")
    try FileManager.default.createDirectory(
      at: mine.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("mine\n".utf8).write(to: mine)
    let captured = CapturedIO()

    #expect(
      await InitCommand.run(["--xcode-templates", directory.path], io: captured.io) == ExitStatus.usage)
    #expect(try String(contentsOf: mine, encoding: .utf8) == "mine\n")
    #expect(captured.standardError.contains("--force"), "\(captured.standardError)")
    // Every file is checked before any is written: the refusal left no other template behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    #expect(
      await InitCommand.run(["graphql", "--xcode-templates", directory.path], io: captured.io)
        == ExitStatus.usage)
    #expect(captured.standardError.contains("--xcode-templates writes every kind; give no KIND"))

    #expect(
      await InitCommand.run(["--xcode-templates", directory.path, "--force"], io: captured.io)
        == ExitStatus.success)
    #expect(try String(contentsOf: mine, encoding: .utf8) == XcodeTemplates.info(of: kind))
  }
}

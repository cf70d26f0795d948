import CanaryTrap
import Foundation
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

  @Test func everyXcodeTemplateHasItsInfoAndBothFlavours() throws {
    let xcode = templatesFolder.deletingLastPathComponent().appendingPathComponent("Xcode")
    let templates = try FileManager.default.contentsOfDirectory(atPath: xcode.path).filter {
      $0.hasSuffix(".xctemplate")
    }
    #expect(templates.count == TemplateCatalog.kinds.count)
    for template in templates {
      let folder = xcode.appendingPathComponent(template)
      let info = try Data(contentsOf: folder.appendingPathComponent("TemplateInfo.plist"))
      let plist = try PropertyListSerialization.propertyList(from: info, format: nil) as? [String: Any]
      #expect(plist?["Kind"] as? String == "Xcode.IDEFoundation.TextSubstitutionFileTemplateKind")
      for flavour in ["Swift Testing", "XCTest"] {
        let source = try String(
          contentsOf: folder.appendingPathComponent("\(flavour)/___FILEBASENAME___.swift"), encoding: .utf8)
        #expect(source.contains("___FILEBASENAMEASIDENTIFIER___"), "\(template)/\(flavour)")
      }
    }
  }
}

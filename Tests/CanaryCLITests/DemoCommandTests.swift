import CanaryTrap
import CanaryTrapExamples
import Foundation
import Testing

@testable import CanaryCLI

@Suite struct DemoCommandTests {
  private func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("canary-demo-test-\(UUID().uuidString)")
  }

  /// Options that keep the test's own output quiet: examples print into a memory log.
  private func options(_ directory: URL, format: String = "text") -> DemoCommand.Options {
    var options = DemoCommand.Options()
    options.outputDirectory = directory
    options.showAppOutput = true
    options.printing = .memoryLog
    options.format = format
    return options
  }

  @Test func printsAGridAndAVerdictPerExampleAndWritesReports() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let captured = CapturedIO()

    let status = await DemoCommand.execute(options(directory), io: captured.io)

    #expect(status == ExitStatus.success, "\(captured.standardError)")
    let text = captured.standardOutput
    for scenario in DemoScenario.all { #expect(text.contains(scenario.title)) }
    #expect(text.contains("→ clean: "))
    #expect(text.contains("→ LEAKY: "))
    #expect(text.contains("5 of 5 examples behaved as their design implies."))
    #expect(text.contains("request headers"))
    #expect(text.contains(directory.path))
    // The breadcrumb uploader's uploads are one column, however the app batched them: the grid
    // reads the same every run and fits a terminal.
    let gridLines = text.components(separatedBy: "\n").filter { $0.hasPrefix("  location ") }
    #expect(gridLines.count == DemoScenario.all.count)
    #expect(gridLines.allSatisfy { !$0.contains(" upload ") }, "\(gridLines)")
    #expect(gridLines.allSatisfy { $0.count < 160 }, "\(gridLines.map(\.count))")
    // The WebSocket kind runs on the two examples with a chat client; the three others say it did not.
    #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("  WebSocket messages ") }.count == 2)
    #expect(
      text.components(separatedBy: "\n").filter { $0.hasPrefix("  not run: WebSocket (websocket): ") }.count
        == 3)
    for scenario in [DemoScenario.denylist, .inspector, .breadcrumbUploader] {
      guard case .notRun(let reason) = scenario.webSocket else {
        Issue.record("\(scenario.name) should not run WebSockets")
        continue
      }
      #expect(text.contains("not run: WebSocket (websocket): \(reason)"))
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    for name in DemoScenario.all.map(\.name) + ["demo"] {
      #expect(files.contains("\(name).html") && files.contains("\(name).json"), "missing \(name) reports")
    }
  }

  @Test func jsonFormatPrintsTheCombinedReport() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let captured = CapturedIO()

    let status = await DemoCommand.execute(options(directory, format: "json"), io: captured.io)

    #expect(status == ExitStatus.success)
    let object = try JSONSerialization.jsonObject(with: Data(captured.standardOutput.utf8)) as? [String: Any]
    #expect(object?["clean"] as? Bool == false)
    let sources = (object?["sources"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    #expect(sources.contains("redacting-transport/memory-log"))
    #expect(sources.contains("network-inspector/export:\(NetworkInspector.harFileName)"))
    let errors = object?["errors"] as? [String] ?? []
    #expect(errors.contains { $0.hasPrefix("denylist-interceptor: not run: WebSocket") })
    #expect(errors.contains { $0.hasPrefix("network-inspector: not run: WebSocket") })
  }

  @Test func aVerdictThatDoesNotMatchExitsOne() async {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var options = options(directory)
    // The denylist example run under the redacting example's expectation of a clean run.
    let denylist = DemoScenario.denylist
    options.scenarios = [
      DemoScenario(name: "mislabelled", title: "mislabelled", expectation: .clean, run: denylist.run)
    ]
    let captured = CapturedIO()

    let status = await DemoCommand.execute(options, io: captured.io)

    #expect(status == ExitStatus.leaks)
    #expect(captured.standardError.contains("mislabelled did not match its expectation"))
    #expect(captured.standardOutput.contains("UNEXPECTED"))
  }

  @Test func rejectsUnknownArgumentsAndFormats() async {
    let captured = CapturedIO()
    #expect(await DemoCommand.run(["--format", "xml"], io: captured.io) == ExitStatus.usage)
    #expect(await DemoCommand.run(["--bogus"], io: captured.io) == ExitStatus.usage)
    #expect(await DemoCommand.run(["--output-dir"], io: captured.io) == ExitStatus.usage)
    #expect(captured.standardError.contains("canary demo: --format must be one of text|json, not 'xml'"))
    #expect(captured.standardError.contains("canary demo: unknown option '--bogus'"))
    #expect(captured.standardError.contains("canary demo: --output-dir needs a value (DIR)"))
  }

  @Test func helpNamesEveryOption() async {
    let captured = CapturedIO()
    #expect(await DemoCommand.run(["--help"], io: captured.io) == ExitStatus.success)
    for option in ["--format", "--output-dir", "--show-app-output"] {
      #expect(captured.standardOutput.contains(option))
    }
  }
}

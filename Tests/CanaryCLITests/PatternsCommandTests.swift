import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary patterns`: the literal list another tool can search with.
@Suite struct PatternsCommandTests {
  func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO()
    let status = await CommandLineTool.run(["patterns"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  func manifest(_ canaries: [Canary]) throws -> (path: String, remove: () -> Void) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patterns-\(UUID().uuidString).json")
    try CanaryManifest(canaries: canaries).write(to: url)
    return (url.path, { try? FileManager.default.removeItem(at: url) })
  }

  @Test func printsEveryLineSafeLiteralOncePerLine() async throws {
    let token = ScanCommandTests.token
    let (path, remove) = try manifest([token])
    defer { remove() }
    let result = await run(["--manifest", path])
    #expect(result.status == ExitStatus.success)
    let lines = result.output.split(separator: "\n").map(String.init)
    let scanner = LeakScanner(canaries: [token])
    let lineSafe = scanner.patterns.filter { !$0.bytes.contains(0) }
    #expect(lines == lineSafe.map { String(decoding: $0.bytes, as: UTF8.self) })
    #expect(lines.first == token.value)
    // The base64 core: every character fixed by the value alone (the last partial one is not).
    let unpadded = Data(token.value.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
    #expect(lines.contains(String(unpadded.dropLast())))
    // The two UTF-16 forms of an ASCII value contain NUL bytes: left out and counted.
    #expect(result.error.contains("left out 2 literals"))
  }

  @Test func escapedListsEveryLiteralWithItsEncoding() async throws {
    let (path, remove) = try manifest([ScanCommandTests.token])
    defer { remove() }
    let result = await run(["--manifest", path, "--escaped"])
    #expect(result.status == ExitStatus.success)
    #expect(result.error.isEmpty)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == LeakScanner(canaries: [ScanCommandTests.token]).patterns.count)
    #expect(lines.contains { $0.hasPrefix("utf16le\trequest.header[X-Session]\tc\\x00n\\x00r\\x00y\\x00") })
  }

  @Test func usageErrors() async throws {
    #expect(await run([]).status == ExitStatus.usage)
    let (path, remove) = try manifest([ScanCommandTests.token])
    defer { remove() }
    let extra = await run(["--manifest", path, "stray"])
    #expect(extra.status == ExitStatus.usage)
    #expect(extra.error.contains("unexpected argument 'stray'"))
    let help = await run(["--help"])
    #expect(help.status == ExitStatus.success)
    #expect(help.output.contains("rg -F -f"))
    #expect(help.output.contains("--escaped"))
  }
}

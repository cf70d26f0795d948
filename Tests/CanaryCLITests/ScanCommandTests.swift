import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary scan` end to end: real files, directories, stdin, formats and exit statuses.
@Suite struct ScanCommandTests {
  static let token = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))
  static let email = Canary(value: "cnry-user-4f2a@example.invalid", location: .requestBody(.json("email")))

  /// A fresh directory with a manifest of both canaries.
  struct Workspace {
    let root: URL
    var manifest: String { root.appendingPathComponent("manifest.json").path }

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("scan-cli-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      try CanaryManifest(canaries: [ScanCommandTests.token, ScanCommandTests.email])
        .write(to: root.appendingPathComponent("manifest.json"))
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
      let url = root.appendingPathComponent(relative)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
      return url.path
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  func run(_ arguments: [String], input: Data = Data()) async -> (
    status: Int32, output: String, error: String
  ) {
    let captured = CapturedIO(input: input)
    let status = await CommandLineTool.run(["scan"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  @Test func cleanFileExitsZero() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", "GET /users 200\ncnry7h2kq9x4m3p nothing\n")
    let result = await run(["--manifest", workspace.manifest, log])
    #expect(result.status == ExitStatus.success)
    #expect(result.error.isEmpty)
  }

  @Test func leakExitsOneAndJSONFollowsTheContract() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let basic = Data("u:\(Self.token.value)".utf8).base64EncodedString()
    let log = try workspace.write("logs/app.log", "line one\nAuthorization: Basic \(basic)\n")
    let result = await run(["--manifest", workspace.manifest, "--format", "json", log])
    #expect(result.status == ExitStatus.leaks)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(json["clean"] as? Bool == false)
    let leaks = try #require(json["leaks"] as? [[String: Any]])
    #expect(leaks.count == 1)
    #expect(leaks.first?["encoding"] as? String == "base64")
    #expect(leaks.first?["source"] as? String == log)
    #expect(leaks.first?["line"] as? Int == 2)
    #expect((leaks.first?["canary"] as? [String: Any])?["location"] as? String == "request.header[X-Session]")
    let sources = try #require(json["sources"] as? [[String: Any]])
    let size = try Data(contentsOf: URL(fileURLWithPath: log)).count
    #expect(sources.first?["bytes"] as? Int == size)
  }

  @Test func directoriesAreWalkedRecursivelyAndLinkLoopsSkipped() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    try workspace.write("logs/a/clean.log", "nothing\n")
    try workspace.write("logs/b/deep/leak.txt", "email=\(Self.email.value)\n")
    try FileManager.default.createSymbolicLink(
      atPath: workspace.root.appendingPathComponent("logs/a/loop").path,
      withDestinationPath: workspace.root.appendingPathComponent("logs").path)
    let result = await run([
      "--manifest", workspace.manifest, "--format", "json",
      workspace.root.appendingPathComponent("logs").path,
    ])
    #expect(result.status == ExitStatus.leaks)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let sources = (json["sources"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    #expect(sources.count == 2)
    #expect(sources.allSatisfy { !$0.contains("loop") })
    let leaks = json["leaks"] as? [[String: Any]] ?? []
    #expect(
      leaks.map { $0["source"] as? String } == [
        workspace.root.appendingPathComponent("logs/b/deep/leak.txt").path
      ])
  }

  @Test func standardInputIsScannedForDash() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let leaky = await run(
      ["--manifest", workspace.manifest, "-"], input: Data("x=\(Self.token.value.uppercased())\n".utf8))
    #expect(leaky.status == ExitStatus.leaks)
    #expect(leaky.output.contains("case-insensitive"))
    let clean = await run(["--manifest", workspace.manifest, "-"], input: Data("nothing\n".utf8))
    #expect(clean.status == ExitStatus.success)
  }

  @Test func unreadablePathExitsTwoWithOneLineReason() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let missing = workspace.root.appendingPathComponent("missing.log").path
    let result = await run(["--manifest", workspace.manifest, missing])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.hasPrefix("canary scan: cannot read \(missing)"))
    #expect(result.error.filter { $0 == "\n" }.count == 1)
    // A leak elsewhere still exits 1; the unreadable path is still named.
    let leak = try workspace.write("leak.log", Self.token.value)
    let both = await run(["--manifest", workspace.manifest, missing, leak])
    #expect(both.status == ExitStatus.leaks)
    #expect(both.error.contains(missing))
  }

  @Test func anEmptyDirectoryIsNotAPass() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let empty = workspace.root.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let result = await run(["--manifest", workspace.manifest, empty.path])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error == "canary scan: cannot read \(empty.path): holds no regular file to scan\n")
  }

  @Test func badUsageExitsTwo() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let log = try workspace.write("a.log", "x")
    let cases: [([String], String)] = [
      ([log], "--manifest FILE is required"),
      (["--manifest", workspace.manifest], "no PATH"),
      (["--manifest", workspace.manifest, "--format", "pdf", log], "--format must be one of"),
      (["--manifest", workspace.manifest, "--min-fragment", "2", log], "--min-fragment"),
      (["--manifest", workspace.manifest, "--bogus", log], "unknown option '--bogus'"),
      (["--manifest", workspace.root.appendingPathComponent("none.json").path, log], "none.json"),
    ]
    for (arguments, message) in cases {
      let result = await run(arguments)
      #expect(result.status == ExitStatus.usage, "\(arguments)")
      #expect(result.error.contains(message), "\(result.error)")
    }
    let badManifest = try workspace.write(
      "short.json", #"{"version":1,"canaries":[{"value":"short","location":"x"}]}"#)
    let short = await run(["--manifest", badManifest, log])
    #expect(short.status == ExitStatus.usage)
  }

  @Test func everyFormatRendersAndOutputWritesAFile() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let log = try workspace.write("a.log", "token \(Self.token.value)\n")
    for format in ReportFormat.allCases {
      let target = workspace.root.appendingPathComponent("report.\(format.fileExtension)")
      let result = await run([
        "--manifest", workspace.manifest, "--format", format.rawValue, "--output", target.path, log,
      ])
      #expect(result.status == ExitStatus.leaks)
      #expect(result.output.isEmpty)
      let written = try String(contentsOf: target, encoding: .utf8)
      #expect(written.contains("request.header[X-Session]"), "\(format)")
    }
  }

  @Test func fragmentsCanBeTurnedOff() async throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let log = try workspace.write("a.log", "truncated \(Self.token.value.prefix(20))…\n")
    #expect(await run(["--manifest", workspace.manifest, log]).status == ExitStatus.leaks)
    #expect(
      await run(["--manifest", workspace.manifest, "--min-fragment", "0", log]).status == ExitStatus.success)
    #expect(
      await run(["--manifest", workspace.manifest, "--min-fragment", "24", log]).status == ExitStatus.success)
  }

  @Test func helpDescribesOptionsAndExitStatuses() async {
    let result = await run(["--help"])
    #expect(result.status == ExitStatus.success)
    for word in [
      "--manifest", "--format", "--output", "--min-fragment", "PATH", "standard input", "EXIT STATUS",
    ] {
      #expect(result.output.contains(word), "\(word)")
    }
  }
}

import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

/// Every exit status of `canary scan`, run as the built executable on real files (the contract CI
/// scripts rely on, independent of how the command is written inside), each with its twin:
/// 0 clean, 1 a canary found (even when another PATH could not be read), 2 bad usage or an
/// unreadable input, and never 0 when nothing was looked at.
@Suite("canary scan exit statuses")
struct ScanExitCodeTests {
  static let value = "cnryExitCode7h2kq9x4m3p8w5"

  /// A directory with a manifest of one canary, removed by `remove()`.
  struct Workspace {
    let root: URL
    var manifest: String { root.appendingPathComponent("manifest.json").path }

    init(manifest: String? = nil) throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("scan-exit-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      let text =
        manifest
        ?? #"{"version":1,"canaries":[{"value":"\#(ScanExitCodeTests.value)","location":"request.header[X-Key]"}]}"#
      try Data(text.utf8).write(to: root.appendingPathComponent("manifest.json"))
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
      return url.path
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  /// Runs `canary scan` with `arguments` and `input` on standard input.
  static func scan(_ arguments: [String], input: Data = Data()) throws -> (status: Int32, error: String) {
    let process = TestProcess()
    let executable = try #require(CanaryExecutableLookup.shared.url)
    process.executableURL = executable
    process.arguments = ["scan"] + arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try ChildProcessLaunch.run(process)
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let collected = Locked(Data())
    let reader = Thread { _ = stdout.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    collected.withLock { $0 = error }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: collected.current, as: UTF8.self))
  }

  static let enabled = CanaryExecutableLookup.shared.url != nil

  @Test("0: a file that holds no canary", .enabled(if: enabled, "needs the canary executable"))
  func cleanIsZero() throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", "GET /users 200\nX-Key: <redacted>\n")
    #expect(try Self.scan(["--manifest", workspace.manifest, log]).status == 0)
    // Twin: the same file with the canary in it.
    let leaky = try workspace.write("leaky.log", "GET /users 200\nX-Key: \(Self.value)\n")
    #expect(try Self.scan(["--manifest", workspace.manifest, leaky]).status == 1)
  }

  @Test(
    "1: a canary found, in any encoding, on standard input too",
    .enabled(if: enabled, "needs the canary executable"))
  func leakIsOne() throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let basic = Data("user:\(Self.value)".utf8).base64EncodedString()
    let log = try workspace.write("app.log", "Authorization: Basic \(basic)\n")
    #expect(try Self.scan(["--manifest", workspace.manifest, log]).status == 1)
    #expect(
      try Self.scan(["--manifest", workspace.manifest, "-"], input: Data("x=\(Self.value)\n".utf8)).status
        == 1)
    #expect(
      try Self.scan(["--manifest", workspace.manifest, "-"], input: Data("x=nothing\n".utf8)).status == 0)
  }

  @Test(
    "1 beats 2: a leak in one PATH while another cannot be read",
    .enabled(if: enabled, "needs the canary executable"))
  func leakBeatsUnreadable() throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let leaky = try workspace.write("leaky.log", "token=\(Self.value)\n")
    let missing = workspace.root.appendingPathComponent("missing.log").path
    let result = try Self.scan(["--manifest", workspace.manifest, leaky, missing])
    #expect(result.status == 1)
    #expect(result.error.contains("missing.log"))
    // Twin: the unreadable PATH alone.
    let alone = try Self.scan(["--manifest", workspace.manifest, missing])
    #expect(alone.status == 2)
    #expect(alone.error.contains("missing.log"))
  }

  @Test(
    "2: bad usage and an unreadable manifest, with one line saying why",
    .enabled(if: enabled, "needs the canary executable"))
  func usageIsTwo() throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", "token=\(Self.value)\n")
    let cases: [(String, [String])] = [
      ("no manifest", [log]),
      ("no PATH", ["--manifest", workspace.manifest]),
      ("unknown option", ["--manifest", workspace.manifest, "--bogus", log]),
      ("manifest missing", ["--manifest", workspace.root.appendingPathComponent("none.json").path, log]),
      ("bad format", ["--manifest", workspace.manifest, "--format", "pdf", log]),
    ]
    for (name, arguments) in cases {
      let result = try Self.scan(arguments)
      #expect(result.status == 2, "\(name)")
      #expect(!result.error.isEmpty, "\(name): no message on standard error")
    }
    let broken = try Workspace(manifest: "{ not json")
    defer { broken.remove() }
    #expect(try Self.scan(["--manifest", broken.manifest, log]).status == 2)
  }

  @Test(
    "never 0 when nothing was looked at: an empty file, empty standard input, no canary",
    .enabled(if: enabled, "needs the canary executable"))
  func nothingLookedAtIsNeverZero() throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let empty = try workspace.write("empty.log", "")
    let noCanary = try Workspace(manifest: #"{"version":1,"canaries":[]}"#)
    defer { noCanary.remove() }
    let log = try workspace.write("app.log", "GET / 200\n")
    let emptyFile = try Self.scan(["--manifest", workspace.manifest, empty]).status
    let emptyInput = try Self.scan(["--manifest", workspace.manifest, "-"]).status
    let withoutCanary = try Self.scan(["--manifest", noCanary.manifest, log]).status
    #expect(emptyFile == 3, "an empty file is inconclusive")
    #expect(emptyInput == 3, "empty standard input is inconclusive")
    #expect(withoutCanary == 2, "a manifest without canaries is bad input")
    // Twin: the same manifest and a file with bytes in it is judged (clean), not inconclusive.
    #expect(try Self.scan(["--manifest", workspace.manifest, log]).status == 0)
  }
}

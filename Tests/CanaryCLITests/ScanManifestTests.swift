import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Manifests and options are checked with errors that say what is actually wrong.
@Suite struct ScanManifestTests {
  let leak = "X-Session: \(ScanWorkspace.canary.value)\n"

  func scan(
    manifestText: String? = nil, manifestData: Data? = nil, manifestPath: String? = nil, extra: [String] = []
  )
    async throws -> (status: Int32, output: String, error: String)
  {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", leak)
    var manifest = manifestPath ?? workspace.manifest
    if let manifestText { manifest = try workspace.write("m.json", manifestText) }
    if let manifestData { manifest = try workspace.write("m.json", manifestData) }
    return await workspace.scan(["--manifest", manifest] + extra + [log])
  }

  static func manifest(value: String) -> String {
    let escaped = String(data: try! JSONEncoder().encode(value), encoding: .utf8)!
    return #"{"version": 1, "canaries": [{"value": \#(escaped), "location": "request.header[X]"}]}"#
  }

  @Test(arguments: ["aaaaaaaaaaaa", "            ", "abababababababab", "\t\t\t\t  \n\n\r\r  \u{A0}\u{A0}"])
  func valuesWithoutRandomnessAreRefused(value: String) async throws {
    let result = try await scan(manifestText: Self.manifest(value: value))
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("distinct character"), "\(result.error)")
  }

  @Test func aValueLongerThanTheLimitIsRefused() async throws {
    let value = (0..<2000).map { String(UnicodeScalar(UInt8(97 + $0 % 26))) }.joined()
    let result = try await scan(manifestText: Self.manifest(value: value))
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("2000 bytes; values may hold at most 1024 bytes"))
  }

  @Test func aValueWithinTheLimitsIsScanned() async throws {
    // Twin of the refusals: the canary itself passes every check and is found.
    let result = try await scan(manifestText: Self.manifest(value: ScanWorkspace.canary.value))
    #expect(result.status == ExitStatus.leaks)
  }

  @Test func fragmentsHaveAFloor() async throws {
    let refused = try await scan(extra: ["--min-fragment", "4"])
    #expect(refused.status == ExitStatus.usage)
    #expect(refused.error.contains("from 8 to 4096"))
    #expect(ScanOptions.minimumFragmentLength == 8)
    #expect(try await scan(extra: ["--min-fragment", "8"]).status == ExitStatus.leaks)
  }

  @Test func maxFindingsIsCheckedAndApplied() async throws {
    #expect(try await scan(extra: ["--max-findings", "0"]).status == ExitStatus.usage)
    #expect(try await scan(extra: ["--max-findings", "x"]).error.contains("--max-findings needs a number"))
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("many.log", String(repeating: leak, count: 30))
    let result = await workspace.scan([
      "--manifest", workspace.manifest, "--max-findings", "4", "--format", "json", log,
    ])
    #expect(result.status == ExitStatus.leaks)
    #expect(result.output.contains(#""leakCount" : 30"#))
    #expect(result.output.contains(#""count" : 26"#))
  }

  @Test func invalidUTF8NamesItsPosition() async throws {
    var data = Data(("{\"version\": 1,\n" + #" "canaries": [{"value": "cnry7h2k"#).utf8)
    data.append(0xFF)
    data.append(contentsOf: #"q9x4m3p8", "location": "x"}]}"#.utf8)
    let result = try await scan(manifestData: data)
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("not UTF-8: invalid byte at line 2, column 34"), "\(result.error)")
    #expect(!result.error.contains("Dictionary"))
  }

  @Test func invalidJSONNamesLineAndColumn() async throws {
    let result = try await scan(manifestText: "{\"version\": 1,\n \"canaries\": [ {\"value\": \"abc\" x ]}")
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("line 2, column 32"), "\(result.error)")
  }

  @Test func aManifestPastTheCanaryCapSaysHowManyAndTheBound() async throws {
    let count = CanaryManifest.maximumCanaryCount + 1
    let text = #"{"version": 1, "canaries": ["# + String(repeating: "0,", count: count - 1) + "0]}"
    let result = try await scan(manifestText: text)
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("holds \(count) canaries"), "\(result.error)")
    #expect(result.error.contains("at most \(CanaryManifest.maximumCanaryCount)"), "\(result.error)")
  }

  @Test func unreadableManifestsSayWhy() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let zero = try await scan(manifestPath: "/dev/zero")
    #expect(zero.error.contains("more than 16 MiB"))
    #expect(!zero.error.contains("permission"))
    let directory = try await scan(manifestPath: workspace.root.path)
    #expect(directory.error.contains("it is a directory"))
    let missing = try await scan(manifestPath: workspace.path("missing.json"))
    #expect(missing.error.contains("No such file or directory"))
    if geteuid() != 0 {
      #expect(chmod(workspace.manifest, 0) == 0)
      let denied = try await scan(manifestPath: workspace.manifest)
      #expect(denied.error.contains("Permission denied"))
    }
    for result in [zero, directory, missing] { #expect(result.status == ExitStatus.usage) }
  }

  @Test func aManifestFromAFIFOIsRead() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("manifest.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    let text = try String(contentsOfFile: workspace.manifest, encoding: .utf8)
    _ = ScanSpecialFileTests.feed(fifo, text)
    let log = try workspace.write("app.log", leak)
    let status = await ScanSpecialFileTests.bounded(seconds: 120, fifo: fifo) {
      await workspace.scan(["--manifest", fifo, log]).status
    }
    #expect(status == ExitStatus.leaks)
  }
}

import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary manifest`: mints manifests every reader accepts, and checks one naming line and column.
@Suite struct ManifestCommandTests {
  func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO()
    let status = await CommandLineTool.run(arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  @Test func mintsFreshCanariesOfEveryShape() async throws {
    let minted = await run(["manifest", "--count", "13", "--shape", "mixed", "--location-prefix", "ui.field"])
    #expect(minted.status == ExitStatus.success, "\(minted.error)")
    let manifest = try CanaryManifest(jsonData: Data(minted.output.utf8))
    #expect(manifest.canaries.count == 13)
    #expect(Set(manifest.canaries.map(\.value)).count == 13)
    #expect(manifest.canaries.map(\.location.description) == (1...13).map { "ui.field[\($0)]" })
    #expect(Set(manifest.canaries.compactMap(\.shape)) == Set(CanaryShape.allCases))
    for canary in manifest.canaries { #expect(canary.value.utf8.count >= CanaryManifest.minimumValueLength) }
    let again = await run(["manifest", "--count", "13", "--shape", "mixed", "--location-prefix", "ui.field"])
    #expect(again.output != minted.output, "two runs must mint different values")
    let one = try CanaryManifest(jsonData: Data(await run(["manifest", "-s", "email"]).output.utf8))
    #expect(one.canaries.count == 1)
    #expect(one.canaries[0].shape == .email)
    #expect(one.canaries[0].location.description == "app.secret[1]")
  }

  @Test func mintedManifestIsWhatScanFinds() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "manifest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("m.json").path
    #expect(await run(["manifest", "-n", "3", "-o", path]).status == ExitStatus.success)
    let refused = await run(["manifest", "-o", path])
    #expect(refused.status == ExitStatus.usage)
    #expect(refused.error.contains("exists; pass --force"))
    let manifest = try CanaryManifest(contentsOf: URL(fileURLWithPath: path))
    let log = directory.appendingPathComponent("app.log")
    try Data("token=\(manifest.canaries[1].value)\n".utf8).write(to: log)
    #expect(await run(["scan", "-m", path, log.path]).status == ExitStatus.leaks)
    try Data("nothing here\n".utf8).write(to: log)
    #expect(await run(["scan", "-m", path, log.path]).status == ExitStatus.success)
    let checked = await run(["manifest", "--check", path])
    #expect(checked.status == ExitStatus.success)
    #expect(checked.output.contains("valid, 3 canaries (token)"))
  }

  @Test func checkNamesWhatIsWrong() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "manifest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let cases: [(String, String)] = [
      (
        "{\n  \"version\": 1,\n  \"canaries\": [ { \"value\": \"x\" \"location\": \"a\" } ]\n}",
        "line 3, column"
      ),
      (#"{"version":1,"canaries":[{"value":"short","location":"a"}]}"#, "values need at least 12 bytes"),
      (#"{"version":1,"canaries":[]}"#, "holds no canary"),
    ]
    for (index, (text, message)) in cases.enumerated() {
      let path = directory.appendingPathComponent("bad-\(index).json").path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      let result = await run(["manifest", "--check", path])
      #expect(result.status == ExitStatus.usage)
      #expect(result.error.hasPrefix("canary manifest: "))
      #expect(result.error.contains(message), "\(result.error)")
    }
    for bad in [["--count", "0"], ["--count", "10001"], ["--shape", "ssn"], ["--location-prefix="]] {
      let result = await run(["manifest"] + bad)
      #expect(result.status == ExitStatus.usage, "\(bad)")
      #expect(result.output.isEmpty)
    }
  }
}

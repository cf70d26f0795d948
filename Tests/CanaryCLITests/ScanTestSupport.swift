import CanaryTrap
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary directory with a manifest of one canary, for the `canary scan` tests.
struct ScanWorkspace {
  static let canary = Canary(
    value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))
  static let other = Canary(value: "cnryQ4Z8V2M6K0T3X7N1", location: .custom("request.header[X-Other]"))

  let root: URL
  var manifest: String { path("manifest.json") }

  init(canaries: [Canary] = [ScanWorkspace.canary]) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try CanaryManifest(canaries: canaries).write(to: URL(fileURLWithPath: manifest))
  }

  func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  @discardableResult
  func write(_ relative: String, _ text: String) throws -> String {
    try write(relative, Data(text.utf8))
  }

  @discardableResult
  func write(_ relative: String, _ data: Data) throws -> String {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url.path
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  /// Runs `canary scan` in-process with captured streams.
  func scan(_ arguments: [String], input: Data = Data()) async -> (
    status: Int32, output: String, error: String
  ) {
    let captured = CapturedIO(input: input)
    let status = await CommandLineTool.run(["scan"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }
}

/// Whether the file system here accepts names that are not UTF-8 (Linux file systems do; APFS
/// refuses them), probed by creating one.
let fileSystemTakesAnyBytes: Bool = {
  let name = FileManager.default.temporaryDirectory.path + "/probe-\(UUID().uuidString)-"
  let bytes = Array(name.utf8) + [0xFF, 0]
  let fd = bytes.withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
  }
  guard fd >= 0 else { return false }
  close(fd)
  _ = bytes.withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) }
  }
  return true
}()

#if os(macOS) || os(Linux)
  /// Runs the built `canary` executable through `/bin/sh`, so a test can close or redirect its
  /// real descriptors; `$CANARY` names the executable. Bounded by `timeout`.
  enum CanaryProcess {
    struct Outcome {
      var status: Int32
      var output: String
      var error: String
      /// Whether the process died of a signal (a crash) rather than exiting.
      var crashed: Bool
    }

    static func run(_ script: String, in directory: URL, seconds: Int = 20) throws -> Outcome {
      let process = TestProcess()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c",
        "cd \"$WORKDIR\" && if command -v timeout >/dev/null 2>&1; then timeout \(seconds) sh -c '\(script)';"
          + " else sh -c '\(script)'; fi",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["CANARY"] = try #require(CanaryExecutableLookup.shared.url).path
      environment["WORKDIR"] = directory.path
      process.environment = environment
      let output = directory.appendingPathComponent("process-stdout.txt")
      let errorFile = directory.appendingPathComponent("process-stderr.txt")
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: output)
      process.standardError = try FileHandle(forWritingTo: errorFile)
      try ChildProcessLaunch.run(process)
      process.waitUntilExit()
      let status = process.terminationStatus
      return Outcome(
        status: status,
        output: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
        error: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "",
        crashed: process.terminationReason == .uncaughtSignal || status > 128)
    }
  }
#endif

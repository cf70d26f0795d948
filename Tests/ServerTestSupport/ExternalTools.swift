import Foundation
import Testing

/// Finds the tools and Python modules that tests shell out to, and records a test that cannot run
/// without one as not run (with the install hint), so `swift test` passes with only the toolchain.
package enum ExternalTools {
  /// The full path of `tool` on `PATH`, or `nil` when no directory of `PATH` holds it.
  package static func path(of tool: String) -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The path of `tool`, or `nil` after recording that the test did not run without it.
  package static func require(
    _ tool: String, for purpose: String = "this test", sourceLocation: SourceLocation = #_sourceLocation
  ) -> String? {
    if let found = path(of: tool) { return found }
    DidNotRun.record(
      "\(tool) is not on PATH (install \(tool)), so \(purpose) did not run", sourceLocation: sourceLocation)
    return nil
  }

  /// Whether `python3` on `PATH` imports `module`; each module is probed once per process.
  package static func pythonImports(_ module: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if let known = probed[module] { return known }
    let found = probePython(module)
    probed[module] = found
    return found
  }

  /// Whether `python3` imports `module`, or `false` after recording that the test did not run
  /// without it; `package` is what `pip install` takes.
  package static func requirePython(
    _ module: String, package: String, for purpose: String = "this test",
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    guard require("python3", for: purpose, sourceLocation: sourceLocation) != nil else { return false }
    if pythonImports(module) { return true }
    DidNotRun.record(
      "Python's \(module) module is not importable (python3 -m pip install \(package)), so \(purpose) did not run",
      sourceLocation: sourceLocation)
    return false
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var probed: [String: Bool] = [:]

  private static func probePython(_ module: String) -> Bool {
    guard let python = path(of: "python3") else { return false }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", "import \(module)"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do { try ChildProcessLaunch.run(process) } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}

import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every command that writes a file the user names, run in-process against a workspace, so one
/// test can hold each of them to the same output rules.
struct OutputWriter: Sendable, CustomStringConvertible {
  let description: String
  /// The command line writing to the path, with `extra` options (such as `--force`) appended.
  let arguments: @Sendable (_ workspace: ScanWorkspace, _ output: String, _ extra: [String]) -> [String]
  /// The option naming the output.
  var option = "--output"

  /// Runs the writer; `serve` stops as soon as it has started.
  func run(_ workspace: ScanWorkspace, output: String, _ extra: [String] = []) async -> (
    status: Int32, output: String, error: String
  ) {
    let captured = CapturedIO()
    let words = arguments(workspace, output, extra)
    let status: Int32
    if words.first == "serve" {
      status = await ServeCommand.run(Array(words.dropFirst()), io: captured.io, until: {})
    } else {
      status = await CommandLineTool.run(words, io: captured.io)
    }
    return (status, captured.standardOutput, captured.standardError)
  }

  /// A line holding the workspace's canary.
  static let leak = "X-Session: \(ScanWorkspace.canary.value)\n"

  static let scan = OutputWriter(description: "scan") { workspace, output, extra in
    ["scan", "-m", workspace.manifest, "-o", output] + extra + [workspace.log]
  }
  static let baseline = OutputWriter(description: "baseline") { workspace, output, extra in
    ["baseline", "-m", workspace.manifest, "-o", output, "--root", workspace.root.path] + extra + [
      workspace.log
    ]
  }
  static let manifest = OutputWriter(description: "manifest") { _, output, extra in
    ["manifest", "-o", output] + extra
  }
  static let reportMerge = OutputWriter(description: "report merge") { workspace, output, extra in
    ["report", "merge", workspace.reports, "-o", output] + extra
  }
  static let serve = OutputWriter(
    description: "serve",
    arguments: { workspace, output, extra in
      ["serve", "-m", workspace.manifest, "--record", output] + extra
    }, option: "--record")

  /// Every writer of a named file except `init`, whose file name is chosen for it.
  static let all: [OutputWriter] = [scan, baseline, manifest, reportMerge, serve]
}

extension ScanWorkspace {
  /// A log holding the canary (written on first use).
  var log: String {
    let path = path("app.log")
    if !FileManager.default.fileExists(atPath: path) { _ = try? write("app.log", OutputWriter.leak) }
    return path
  }

  /// A folder of one SARIF report, for `report merge` (written on first use).
  var reports: String {
    let folder = path("reports")
    if !FileManager.default.fileExists(atPath: folder) {
      _ = try? write("reports/a.sarif", LeakReport(title: "T", canaries: []).rendered(as: .sarif))
    }
    return folder
  }

  /// Runs the `canary` command line in-process with captured streams.
  func run(_ arguments: [String], input: Data = Data()) async -> (
    status: Int32, output: String, error: String
  ) {
    let captured = CapturedIO(input: input)
    let status = await CommandLineTool.run(arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  /// A character device node at `name` in the workspace with the same device number as `device`
  /// (such as `/dev/null`), so a writer that wrongly replaced it would destroy only the copy;
  /// `device` itself where nodes cannot be made (not root, or no `CAP_MKNOD`).
  func deviceNode(like device: String, named name: String) -> String {
    var info = stat()
    guard stat(device, &info) == 0 else { return device }
    let node = path(name)
    return mknod(node, S_IFCHR | 0o666, info.st_rdev) == 0 ? node : device
  }
}

/// The kind of file at `path` (links followed), such as `S_IFCHR`, or 0 when there is none.
func fileType(_ path: String) -> mode_t {
  var info = stat()
  return stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
}

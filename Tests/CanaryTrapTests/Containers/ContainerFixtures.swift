import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

/// Makes container files with the real tools (gzip, zip, tar, python3) in a fresh directory.
struct ContainerFixtures {
  static let canary = Canary(value: "cnryZ8q2Lk5VwX3mN7pR4tB6", location: .custom("container-test"))
  static let scanner = LeakScanner(canaries: [canary])

  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("containers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  /// A log whose line `line` (1-based) holds the canary after `prefix`, or a clean log of the
  /// same shape when `leak` is false.
  static func log(leak: Bool, line: Int = 3, prefix: String = "GET /me token=", lines: Int = 6) -> String {
    (1...lines).map { $0 == line ? prefix + (leak ? canary.value : "redacted") : "line \($0) of the log" }
      .joined(separator: "\n") + "\n"
  }

  @discardableResult
  func write(_ relative: String, _ text: String) throws -> URL {
    try write(relative, Data(text.utf8))
  }

  @discardableResult
  func write(_ relative: String, _ data: Data) throws -> URL {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url
  }

  func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

  /// The full path of `tool` on PATH, or `nil` (the test then records that it did not run).
  static func locate(_ tool: String) -> String? { ExternalTools.path(of: tool) }

  /// Runs `tool` with `arguments` in ``root``; returns false (after recording that the test did not
  /// run, naming the missing tool) when the tool is not installed, so the caller stops there.
  func run(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> Bool
  {
    guard let path = ExternalTools.require(tool, for: "this container test", sourceLocation: sourceLocation)
    else { return false }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = root
    // What a tool prints (sqlite3 echoes its pragmas' values) is not the test's output.
    process.standardOutput = FileHandle.nullDevice
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(tool) \(arguments) failed", sourceLocation: sourceLocation)
    return process.terminationStatus == 0
  }

  /// Runs a python3 script in ``root``.
  func python(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
    try run("python3", ["-c", script], sourceLocation: sourceLocation)
  }

  /// Scans the file at `relative` as `canary scan` and `FileSink` do, named `relative`.
  func scan(_ relative: String, limits: ContainerLimits? = nil) -> (
    findings: [LeakFinding], source: ScannedSource
  ) {
    var scanner = Self.scanner
    if let limits {
      var options = ScanOptions()
      options.containerLimits = limits
      scanner = LeakScanner(canaries: [Self.canary], options: options)
    }
    return scanner.scan(.file(url(relative), name: relative))
  }

  /// Cuts the file at `relative` to `fraction` of its length.
  func truncate(_ relative: String, to fraction: Double) throws {
    let data = try Data(contentsOf: url(relative))
    try data.prefix(Int(Double(data.count) * fraction)).write(to: url(relative))
  }

  /// Flips the bits of `count` bytes in the middle of the file at `relative`.
  func corrupt(_ relative: String, count: Int = 16, at fraction: Double = 0.5) throws {
    var data = try Data(contentsOf: url(relative))
    let start = Int(Double(data.count) * fraction)
    for index in start..<min(data.count, start + count) { data[index] ^= 0x5A }
    try data.write(to: url(relative))
  }
}

extension ScannedSource.Status {
  /// The failure reason, or `nil` when the source did not fail.
  var failureReason: String? {
    if case .failed(let reason) = self { return reason }
    return nil
  }
}

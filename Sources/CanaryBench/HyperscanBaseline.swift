import CanaryCLI
import CanaryTrap
import Foundation

/// The Hyperscan side of `canary-bench scan`: runs `CI/bench/hyperscan_scan.py` on the scanner's
/// literals and the benchmark's corpus, when python3 and its `hyperscan` module are installed.
enum HyperscanBaseline {
  /// Whether the comparison can run, and with what.
  enum Availability {
    case ready(python: String, script: String)
    case unavailable(String)
  }

  /// Finds python3 with the `hyperscan` module and the script.
  static func find(script: String) -> Availability {
    guard let python = ScanBenchmark.which("python3") else { return .unavailable("python3 not on PATH") }
    guard FileManager.default.fileExists(atPath: script) else {
      return .unavailable("\(script) not found (run from the package root or pass --hyperscan-script)")
    }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import hyperscan"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    do {
      try probe.run()
      probe.waitUntilExit()
    } catch {
      return .unavailable("python3 could not be run: \(error)")
    }
    guard probe.terminationStatus == 0 else {
      return .unavailable("the python3 module 'hyperscan' is not installed (pip install hyperscan)")
    }
    return .ready(python: python, script: script)
  }

  /// Writes every literal of `scanner` (hex, one a line), runs the script and returns its best
  /// scan rate in MB/s of wall clock and of its CPU time; with `threads` above 1 the log is cut
  /// into that many parts scanned at once.
  static func rate(
    python: String, script: String, scanner: LeakScanner, log: URL, directory: URL, repeats: Int,
    threads: Int = 1
  ) throws -> ScanBenchmark.Rate {
    let patternsFile = directory.appendingPathComponent("hyperscan-\(scanner.canaries.count).hex")
    let lines = scanner.patterns.map { pattern in pattern.bytes.map { String(format: "%02x", $0) }.joined() }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: patternsFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, patternsFile.path, log.path, String(repeats), String(threads)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct Result: Decodable {
      var wall_seconds: Double
      var cpu_seconds: Double
      var bytes: Int
    }
    guard process.terminationStatus == 0, let result = try? JSONDecoder().decode(Result.self, from: data)
    else {
      throw BenchError(
        description: "hyperscan_scan.py failed (status \(process.terminationStatus)): "
          + String(decoding: data, as: UTF8.self))
    }
    let megabytes = Double(result.bytes) / 1_048_576
    return ScanBenchmark.Rate(
      wall: megabytes / max(result.wall_seconds, 1e-9), cpu: megabytes / max(result.cpu_seconds, 1e-9))
  }
}

import CanaryCLI
import CanaryTrap
import Foundation

/// `canary-bench scan-gzip`: scanning a gzip-compressed log against `gzip -dc > /dev/null` on the
/// same file in the same run, with the peak memory of the scan.
enum ScanGzipBenchmark {
  static let sizeOption = Option<Int?>.integer(
    "--size", placeholder: "MB", help: "Megabytes of synthetic log.", defaultValue: "1024",
    range: 1...1_000_000)

  static let countOption = Option<Int?>.integer(
    "--count", help: "Canaries to scan for.", defaultValue: "1000", range: 6...1_000_000)

  static let repeatOption = Option<Int?>.integer(
    "--repeat", help: "Runs per figure; the best is kept.", defaultValue: "1", range: 1...1000)

  static let keepOption = Option<Bool>.flag("--keep", help: "Keep the .gz and write manifest.json beside it.")

  static let command = CommandSpec(
    name: "scan-gzip", abstract: "Scanning a .gz log against gzip -dc > /dev/null.",
    discussion: """
      Writes the synthetic log of 'canary-bench scan' (MB megabytes), compresses it with \
      'gzip -6', then times 'gzip -dc FILE > /dev/null' and a scan of the .gz file with N canaries \
      and every encoding on (best of --repeat runs). Prints MB/s of decompressed text for both, \
      their ratio (the budget is at least 0.5), the findings (every planted canary must be found \
      through the gzip layer) and the peak resident memory of the scan (the budget is under \
      64 MB). --keep keeps the .gz and writes manifest.json beside it, to repeat the scan in a \
      process of its own. Build with -c release; needs gzip on the PATH.
      """,
    options: [sizeOption, countOption, repeatOption, keepOption],
    run: { parsed, io in
      run(
        megabytes: parsed[sizeOption] ?? 1024, count: parsed[countOption] ?? 1000,
        repeats: parsed[repeatOption] ?? 1, keep: parsed[keepOption], io: io)
    })

  static func run(megabytes: Int, count: Int, repeats: Int, keep: Bool, io: CommandIO) -> Int32 {
    guard let gzip = ScanBenchmark.which("gzip") else {
      io.writeError("canary-bench scan-gzip: gzip is not on the PATH; nothing was measured\n")
      return ExitStatus.usage
    }
    do {
      try measure(megabytes: megabytes, count: count, repeats: repeats, keep: keep, gzip: gzip, io: io)
      return ExitStatus.success
    } catch {
      io.writeError("canary-bench scan-gzip: \(error)\n")
      return ExitStatus.usage
    }
  }

  static func measure(megabytes: Int, count: Int, repeats: Int, keep: Bool, gzip: String, io: CommandIO)
    throws
  {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "canary-bench-scan-gzip-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if !keep { try? FileManager.default.removeItem(at: directory) } }
    let generator = CanaryGenerator()
    let shapes: [CanaryShape] = [.token, .email, .uuid, .number, .jwt, .password]
    let canaries = (0..<count).map { index in
      Canary(value: generator.makeValue(shapes[index % shapes.count]), location: .custom("bench[\(index)]"))
    }
    if keep {
      try CanaryManifest(canaries: canaries).write(to: directory.appendingPathComponent("manifest.json"))
    }
    let log = directory.appendingPathComponent("synthetic.log")
    let planted = try ScanBenchmarkCorpus.write(
      to: log, megabytes: megabytes, plants: ScanBenchmark.plantTexts(canaries))
    let size = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0
    let compressed = directory.appendingPathComponent("synthetic.log.gz")
    try shell(gzip, ["-6", "-c", log.path], output: compressed)
    try? FileManager.default.removeItem(at: log)
    let stored = try FileManager.default.attributesOfItem(atPath: compressed.path)[.size] as? Int ?? 0
    io.writeOutput(
      "corpus: \(size >> 20) MB of log, \(stored >> 20) MB as gzip -6; \(planted.count) canaries planted; "
        + "best of \(repeats)\n")
    _ = try shellRate(gzip, compressed, size)  // warm the page cache
    let megabytesOut = Double(size) / 1_048_576
    var gzipRate = ScanBenchmark.Rate(wall: 0, cpu: 0)
    for _ in 0..<repeats {
      let rate = try shellRate(gzip, compressed, size)
      gzipRate.wall = max(gzipRate.wall, rate.wall)
      gzipRate.cpu = max(gzipRate.cpu, rate.cpu)
    }
    let scanner = LeakScanner(canaries: canaries)
    ScanBenchmark.resetPeakMemory()
    var scanRate = ScanBenchmark.Rate(wall: 0, cpu: 0)
    // Distinct canaries, found against planted: one canary may be planted in two encodings.
    var found = 0
    var status = ""
    for _ in 0..<repeats {
      let cpuStart = ScanBenchmark.cpuSeconds(children: false)
      let start = ContinuousClock.now
      let result = scanner.scan(.file(compressed, name: "synthetic.log.gz"))
      let wall = ScanBenchmark.seconds(ContinuousClock.now - start)
      let cpu = ScanBenchmark.cpuSeconds(children: false) - cpuStart
      scanRate.wall = max(scanRate.wall, megabytesOut / max(wall, 1e-9))
      scanRate.cpu = max(scanRate.cpu, megabytesOut / max(cpu, 1e-9))
      found = Set(result.findings.map(\.canary)).count
      status = "\(result.source.status)"
    }
    let peak = ScanBenchmark.peakMemoryMB()
    let ratioWall = scanRate.wall / max(gzipRate.wall, 0.001)
    let ratioCPU = scanRate.cpu / max(gzipRate.cpu, 0.001)
    var line = ScanBenchmark.pad(gzipRate.wall, 13) + " (" + ScanBenchmark.pad(gzipRate.cpu, 4) + ")  "
    line += ScanBenchmark.pad(scanRate.wall, 9) + " (" + ScanBenchmark.pad(scanRate.cpu, 4) + ")  "
    line += ScanBenchmark.pad(ratioWall, 5) + "x (" + ScanBenchmark.pad(ratioCPU, 4) + "x)  "
    line +=
      ScanBenchmark.pad("\(found)/\(Set(planted.map(\.canary)).count)", 14) + "  "
      + ScanBenchmark.pad(peak, 11) + "  " + status
    io.writeOutput(
      "MB/s of decompressed text, wall clock (cpu)\n"
        + "gzip -dc MB/s (cpu)  scan MB/s (cpu)  ratio (cpu)  canaries found  peak RSS MB  source\n" + line
        + "\n")
  }

  /// Runs `tool` with `arguments`, its standard output into `output`.
  static func shell(_ tool: String, _ arguments: [String], output: URL) throws {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = handle
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(
        .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) failed"])
    }
  }

  /// Times `gzip -dc FILE > /dev/null`.
  static func shellRate(_ gzip: String, _ file: URL, _ size: Int) throws -> ScanBenchmark.Rate {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gzip)
    process.arguments = ["-dc", file.path]
    process.standardOutput = FileHandle.nullDevice
    let cpuStart = ScanBenchmark.cpuSeconds(children: true)
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let wall = ScanBenchmark.seconds(ContinuousClock.now - start)
    let cpu = ScanBenchmark.cpuSeconds(children: true) - cpuStart
    let megabytes = Double(size) / 1_048_576
    return ScanBenchmark.Rate(wall: megabytes / max(wall, 1e-9), cpu: megabytes / max(cpu, 1e-9))
  }
}

import CanaryCLI
import CanaryTrap
import Foundation

/// `canary-bench scale`: time and peak memory of `canary scan` with large canary sets, beside
/// Hyperscan compiling the same literals, in one run.
enum ScaleBenchmark {
  static let countsOption = Option<String?>.value(
    "--counts", placeholder: "LIST", help: "Canary counts, comma-separated, each at least 6.",
    defaultValue: "1000,10000,100000",
    check: { text in
      parseCounts(text) == nil
        ? "--counts needs numbers of at least 6, like 1000,100000, not '\(text)'" : nil
    })

  static let sizeOption = Option<Int?>.integer(
    "--size", placeholder: "MB", help: "Megabytes of synthetic log.", defaultValue: "50",
    range: 1...100_000)

  static let repeatOption = Option<Int?>.integer(
    "--repeat", help: "Runs per figure; the fastest is kept.", defaultValue: "1", range: 1...100)

  static let noHyperscanOption = Option<Bool>.flag("--no-hyperscan", help: "Skip Hyperscan.")

  static let hyperscanLimitOption = Option<Int?>.integer(
    "--hyperscan-limit", placeholder: "SECONDS",
    help: "Stop a Hyperscan run after this long (4.6 million literals take it far longer to compile).",
    defaultValue: "300", range: 1...86_400)

  static let hyperscanScriptOption = Option<String?>.value(
    "--hyperscan-script", placeholder: "PATH", help: "The Hyperscan driver script.",
    defaultValue: "CI/bench/hyperscan_scan.py")

  static let keepOption = Option<Bool>.flag("--keep", help: "Keep the manifests, inputs and literal files.")

  static let command = CommandSpec(
    name: "scale", abstract: "canary scan's time and memory with 100,000 canaries, against Hyperscan.",
    discussion: """
      For each canary count, mints that many canaries of every shape into a manifest, then runs \
      'canary scan' (the executable beside this one, in its own process) on a 52-byte file and on \
      a synthetic log of MB megabytes, best of N, and prints wall and CPU seconds and the peak \
      resident memory of that process (wait4, as /usr/bin/time measures it). The log's last line \
      holds a canary of every set base64-encoded: each scan must report it there, in base64, or \
      the benchmark fails. When python3 has the 'hyperscan' module, runs \
      CI/bench/hyperscan_scan.py in its own process twice, on the raw values and on every literal \
      the scanner searches for those canaries (compiled by Hyperscan, the log scanned from \
      memory), measured the same way and stopped after --hyperscan-limit seconds, and prints the \
      ratios of time and memory: this machine is shared and noisy, so compare ratios from one \
      run. Build with -c release.
      """,
    options: [
      countsOption, sizeOption, repeatOption, noHyperscanOption, hyperscanLimitOption, hyperscanScriptOption,
      keepOption,
    ],
    run: { parsed, io in run(parsed, io: io) })

  /// `1000,100000` as numbers, or nil when empty or holding a number under 6 or a non-number.
  static func parseCounts(_ text: String) -> [Int]? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let counts = parts.compactMap { Int($0) }
    guard !counts.isEmpty, counts.count == parts.count, counts.allSatisfy({ $0 >= 6 }) else { return nil }
    return counts
  }

  static func run(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    do {
      try measure(parsed, io: io)
      return ExitStatus.success
    } catch {
      io.writeError("canary-bench scale: \(error)\n")
      return ExitStatus.usage
    }
  }

  static func measure(_ parsed: ParsedCommand, io: CommandIO) throws {
    guard let canaryTool = SoakBenchmark.canaryExecutable() else {
      throw BenchError(description: "cannot find the canary executable beside this one")
    }
    let counts = parsed[countsOption].flatMap(parseCounts) ?? [1000, 10000, 100_000]
    let repeats = parsed[repeatOption] ?? 1
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "canary-bench-scale-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if !parsed[keepOption] { try? FileManager.default.removeItem(at: directory) } }

    let canaries = mint(counts.max() ?? 6)
    let small = directory.appendingPathComponent("small.txt")
    try Data("a 52-byte file that holds no canary at all, only x.\n".utf8).write(to: small)
    let log = directory.appendingPathComponent("synthetic.log")
    _ = try ScanBenchmarkCorpus.write(
      to: log, megabytes: parsed[sizeOption] ?? 50, plants: ScanBenchmark.plantTexts(canaries))
    // The last line holds the last canary of the smallest set, base64-encoded: every scan of the
    // log must find it there, in that encoding.
    let endPlant = canaries[(counts.min() ?? 6) - 1]
    let endLine = try appendEndPlant(endPlant, to: log)
    let logSize = (try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
    let hyperscan =
      parsed[noHyperscanOption]
      ? nil
      : HyperscanBaseline.find(script: parsed[hyperscanScriptOption] ?? "CI/bench/hyperscan_scan.py")
    if case .unavailable(let reason)? = hyperscan { io.writeOutput("Hyperscan skipped: \(reason)\n") }
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(
      3)
    io.writeOutput(
      "inputs: 52 B and \(logSize >> 20) MB; \(ProcessInfo.processInfo.activeProcessorCount) cores, load "
        + "\(load?.joined(separator: " ") ?? "?"); fastest of \(repeats); s = wall seconds (CPU seconds), "
        + "MB = peak RSS of the process\n")
    for count in counts {
      let set = Array(canaries.prefix(count))
      let manifest = directory.appendingPathComponent("manifest-\(count).json")
      try writeManifest(set, to: manifest)
      var line = "\(count) canaries"
      var ours: [MeasuredProcess.Measurement] = []
      for (name, input, leaks) in [("52 B", small, false), ("\(logSize >> 20) MB", log, true)] {
        let report = directory.appendingPathComponent("report-\(count).json")
        let best = try fastest(repeats) {
          try? FileManager.default.removeItem(at: report)  // scan refuses to overwrite a file
          return try MeasuredProcess.run(
            canaryTool,
            ["scan", "--manifest", manifest.path, "--format", "json", "--output", report.path, input.path],
            outputFile: directory.appendingPathComponent("scan.out"), limit: 3600)
        }
        guard best.status == (leaks ? ExitStatus.leaks : ExitStatus.success) else {
          throw BenchError(
            description: "canary scan exited \(best.status.map(String.init) ?? "by a signal") on \(name) "
              + "with \(count) canaries, expected \(leaks ? "leaks" : "clean")")
        }
        if leaks { try checkEndPlant(endPlant, line: endLine, report: report, count: count) }
        ours.append(best)
        line += "; canary scan \(name): \(figure(best))"
      }
      line += "; end plant found (base64, line \(endLine))"
      io.writeOutput(line + "\n")
      guard case .ready(let python, let script)? = hyperscan else { continue }
      let limit = Double(parsed[hyperscanLimitOption] ?? 300)
      // The raw values alone (what `grep -F` would search), then every literal the scanner
      // searches (every encoding), each compiled and run by Hyperscan in its own process.
      for allEncodings in [false, true] {
        let literals = directory.appendingPathComponent("literals-\(count)-\(allEncodings).hex")
        let literalCount = try writeLiterals(set, allEncodings: allEncodings, to: literals)
        let theirs = try MeasuredProcess.run(
          python, [script, literals.path, log.path, "1"],
          outputFile: directory.appendingPathComponent("hs.out"),
          limit: limit)
        let what =
          allEncodings ? "every encoding, \(literalCount) literals" : "raw values, \(literalCount) literals"
        io.writeOutput(hyperscanLine(theirs, what: what, limit: limit, ours: ours) + "\n")
      }
    }
  }

  /// Appends one line holding `canary` base64-encoded to `log`; returns its line number.
  static func appendEndPlant(_ canary: Canary, to log: URL) throws -> Int {
    let handle = try FileHandle(forUpdating: log)
    defer { try? handle.close() }
    var lines = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      lines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
    let text = "2026-11-29T23:59:59.999Z DEBUG blob=\(Data(canary.value.utf8).base64EncodedString())\n"
    try handle.write(contentsOf: Data(text.utf8))
    return lines + 1
  }

  /// Throws unless the JSON report at `report` lists `canary` on `line` in base64.
  static func checkEndPlant(_ canary: Canary, line: Int, report: URL, count: Int) throws {
    struct Document: Decodable {
      struct Leak: Decodable {
        struct Reference: Decodable { var value: String }
        var canary: Reference
        var encoding: String
        var line: Int
      }
      var leaks: [Leak]
    }
    let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: report))
    let found = document.leaks.filter { $0.canary.value == canary.value && $0.line == line }
    guard found.contains(where: { $0.encoding == ScanEncoding.base64.rawValue }) else {
      throw BenchError(
        description: "with \(count) canaries, the canary planted base64 on line \(line) was "
          + (found.isEmpty ? "not found" : "found only as \(found.map(\.encoding))"))
    }
  }

  /// The fastest of `repeats` runs, with the highest peak memory of them (the conservative one).
  static func fastest(_ repeats: Int, _ run: () throws -> MeasuredProcess.Measurement) throws
    -> MeasuredProcess.Measurement
  {
    var best = try run()
    for _ in 1..<max(1, repeats) {
      let next = try run()
      let peak = max(best.peakMB, next.peakMB)
      if next.wallSeconds < best.wallSeconds { best = next }
      best.peakMB = peak
    }
    return best
  }

  /// Hyperscan's figures and the ratios of ours to them: our 52-byte scan (reading the manifest
  /// and compiling) against its compile, our log scan against its compile and scan.
  static func hyperscanLine(
    _ run: MeasuredProcess.Measurement, what: String, limit: Double, ours: [MeasuredProcess.Measurement]
  ) -> String {
    struct Result: Decodable {
      var compile_seconds: Double
      var wall_seconds: Double
    }
    let prefix = "  Hyperscan, \(what): "
    guard !run.timedOut else {
      return prefix
        + String(
          format: "did not finish within %.0f s (peak %.0f MB so far); ratios unknown", limit, run.peakMB)
    }
    guard run.status == 0, let result = try? JSONDecoder().decode(Result.self, from: run.output) else {
      return prefix + "failed (status \(run.status.map(String.init) ?? "killed"))"
    }
    var text =
      prefix
      + String(
        format: "compile %.2f s, scan %.2f s; process %@", result.compile_seconds, result.wall_seconds,
        figure(run))
    text += String(
      format: "; ratios canary/Hyperscan: 52 B %.2fx time (vs compile), log %.2fx time, memory %.2fx",
      ours[0].wallSeconds / max(result.compile_seconds, 1e-6),
      ours[1].wallSeconds / max(result.compile_seconds + result.wall_seconds, 1e-6),
      ours[1].peakMB / max(run.peakMB, 1e-6))
    return text
  }

  static func figure(_ run: MeasuredProcess.Measurement) -> String {
    String(format: "%.2f s (%.2f), %.0f MB", run.wallSeconds, run.cpuSeconds, run.peakMB)
  }

  /// `count` canaries cycling through every shape.
  static func mint(_ count: Int) -> [Canary] {
    let generator = CanaryGenerator()
    let shapes = CanaryShape.allCases
    return (0..<count).map { index in
      let shape = shapes[index % shapes.count]
      return Canary(value: generator.makeValue(shape), location: .custom("bench[\(index)]"), shape: shape)
    }
  }

  /// Writes a manifest without indentation, as a pipeline would.
  static func writeManifest(_ canaries: [Canary], to url: URL) throws {
    struct Entry: Encodable {
      var value: String
      var location: String
      var shape: String?
    }
    struct Document: Encodable {
      var version = CanaryManifest.currentVersion
      var canaries: [Entry]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    let document = Document(
      canaries: canaries.map {
        Entry(value: $0.value, location: $0.location.description, shape: $0.shape?.rawValue)
      })
    try encoder.encode(document).write(to: url)
  }

  /// Writes every literal the scanner searches for `canaries` (only their raw values without
  /// `allEncodings`), hex, one a line; returns how many.
  static func writeLiterals(_ canaries: [Canary], allEncodings: Bool, to url: URL) throws -> Int {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let digits = Array("0123456789abcdef".utf8)
    var count = 0
    var text: [UInt8] = []
    let options = allEncodings ? ScanOptions() : ScanOptions(encodings: [.raw], minFragment: nil)
    try LeakScanner.forEachPattern(of: canaries, options: options) { pattern in
      for byte in pattern.bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 15)])
      }
      text.append(0x0A)
      count += 1
      if text.count > 1 << 20 {
        try handle.write(contentsOf: Data(text))
        text.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: Data(text))
    return count
  }
}

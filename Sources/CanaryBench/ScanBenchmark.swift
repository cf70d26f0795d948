import CanaryCLI
import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `canary-bench scan`: scanner throughput on a synthetic log, against ripgrep when installed.
enum ScanBenchmark {
  static let sizeOption = Option<Int?>.integer(
    "--size", placeholder: "MB", help: "Megabytes of synthetic log.", defaultValue: "400",
    range: 1...1_000_000)

  static let countsOption = Option<String?>.value(
    "--counts", placeholder: "LIST", help: "Canary counts to scan for, comma-separated, each at least 5.",
    defaultValue: "10,100,1000,5000",
    check: { text in
      parseCounts(text) == nil
        ? "--counts needs numbers of at least 5, like 10,100,1000, not '\(text)'" : nil
    })

  static let repeatOption = Option<Int?>.integer(
    "--repeat", help: "Runs per figure; the best is kept.", defaultValue: "3", range: 1...1000)

  static let noRipgrepOption = Option<Bool>.flag("--no-rg", help: "Skip ripgrep.")

  static let noHyperscanOption = Option<Bool>.flag("--no-hyperscan", help: "Skip Hyperscan.")

  static let hyperscanScriptOption = Option<String?>.value(
    "--hyperscan-script", placeholder: "PATH", help: "The Hyperscan driver script.",
    defaultValue: "CI/bench/hyperscan_scan.py")

  static let keepOption = Option<Bool>.flag("--keep", help: "Keep the log and its manifests.")

  static let command = CommandSpec(
    name: "scan", abstract: "Scanner throughput against ripgrep.",
    discussion: """
      Writes a synthetic log of MB megabytes to a temporary directory (kept with --keep, with a \
      manifest-COUNT.json per count, for repeating a run by hand), plants a few canaries in it, \
      then for each canary count scans it with every encoding on, with fragments on and off (best \
      of N runs), and prints MB/s and the peak resident memory of the process during the scan. \
      When 'rg' is on the PATH, runs 'rg -F -f <patterns> --count-matches' on the same file with \
      the literals 'canary patterns' prints, and prints the throughput ratio. When python3 has the \
      'hyperscan' module (pip install hyperscan), runs CI/bench/hyperscan_scan.py (or \
      --hyperscan-script PATH): every literal the scanner searches compiled by Hyperscan, the file \
      scanned from memory in block mode, best of N; prints its MB/s and our ratio to it. Build \
      with -c release.
      """,
    options: [
      sizeOption, countsOption, repeatOption, noRipgrepOption, noHyperscanOption, hyperscanScriptOption,
      keepOption,
    ],
    run: { parsed, io in run(options(parsed), io: io) })

  struct Options {
    var megabytes = 400
    var counts = [10, 100, 1000, 5000]
    var ripgrep = true
    var keep = false
    var repeats = 3
    var hyperscan = true
    var hyperscanScript = "CI/bench/hyperscan_scan.py"
  }

  /// `10,100,1000` as numbers, or nil when it is empty or holds a number under 5 or a non-number.
  static func parseCounts(_ text: String) -> [Int]? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let counts = parts.compactMap { Int($0) }
    guard !counts.isEmpty, counts.count == parts.count, counts.allSatisfy({ $0 >= 5 }) else { return nil }
    return counts
  }

  /// The options a parsed command line sets (checked by the declarations).
  static func options(_ parsed: ParsedCommand) -> Options {
    var options = Options()
    options.megabytes = parsed[sizeOption] ?? options.megabytes
    options.counts = parsed[countsOption].flatMap(parseCounts) ?? options.counts
    options.repeats = parsed[repeatOption] ?? options.repeats
    options.ripgrep = !parsed[noRipgrepOption]
    options.hyperscan = !parsed[noHyperscanOption]
    options.hyperscanScript = parsed[hyperscanScriptOption] ?? options.hyperscanScript
    options.keep = parsed[keepOption]
    return options
  }

  static func run(_ options: Options, io: CommandIO) -> Int32 {
    do {
      try measure(options, io: io)
      return ExitStatus.success
    } catch {
      io.writeError("canary-bench scan: \(error)\n")
      return ExitStatus.usage
    }
  }

  static func measure(_ options: Options, io: CommandIO) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "canary-bench-scan-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if !options.keep { try? FileManager.default.removeItem(at: directory) } }
    let generator = CanaryGenerator()
    let shapes: [CanaryShape] = [.token, .email, .uuid, .number, .jwt, .password]
    let canaries = (0..<(options.counts.max() ?? 10)).map { index in
      Canary(value: generator.makeValue(shapes[index % shapes.count]), location: .custom("bench[\(index)]"))
    }
    let plants = plantTexts(canaries)
    let log = directory.appendingPathComponent("synthetic.log")
    let started = ContinuousClock.now
    let planted = try ScanBenchmarkCorpus.write(to: log, megabytes: options.megabytes, plants: plants)
    let size = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0
    io.writeOutput(
      "corpus: \(log.path), \(size >> 20) MB, written in \(seconds(ContinuousClock.now - started)) s; "
        + "planted: \(planted.map(\.encoding).joined(separator: ", "))\n")
    // Read once so every tool reads from the page cache.
    _ = try LeakScanner(canaries: [], options: ScanOptions()).scanFile(at: log, source: "warm-up")
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(
      3)
    io.writeOutput(
      "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load?.joined(separator: " ") ?? "?"); "
        + "best of \(options.repeats) scans per figure\n")
    let ripgrep = options.ripgrep ? which("rg") : nil
    if options.ripgrep && ripgrep == nil {
      io.writeOutput("rg not found on PATH: ripgrep comparison skipped\n")
    }
    let hyperscan = options.hyperscan ? HyperscanBaseline.find(script: options.hyperscanScript) : nil
    if options.hyperscan, case .unavailable(let reason)? = hyperscan {
      io.writeOutput("Hyperscan comparison skipped: \(reason)\n")
    }
    let runsHyperscan: Bool = if case .ready? = hyperscan { true } else { false }
    io.writeOutput(
      "MB/s is wall clock; (cpu) is MB per CPU-second of the scanning process, or of rg\n"
        + "canaries  patterns  build s  frag-on MB/s (cpu)  frag-off MB/s (cpu)  findings  peak RSS MB"
        + (ripgrep == nil ? "" : "  rg MB/s (cpu)  ratio (cpu)")
        + (runsHyperscan
          ? "  hs MB/s (cpu)  frag-on/hs (cpu)  frag-off/hs (cpu)  hs 2 threads MB/s (cpu)  frag-on/hs2\n"
          : "\n"))
    for count in options.counts {
      let set = Array(canaries.prefix(count))
      if options.keep {
        try CanaryManifest(canaries: set).write(
          to: directory.appendingPathComponent("manifest-\(count).json"))
      }
      let buildStart = ContinuousClock.now
      let scanner = LeakScanner(canaries: set)
      let build = seconds(ContinuousClock.now - buildStart)
      resetPeakMemory()
      let (on, found) = try timedScan(scanner, log, size, repeats: options.repeats)
      let peak = peakMemoryMB()
      var off = ScanOptions()
      off.minFragment = nil
      let (offRate, _) = try timedScan(
        LeakScanner(canaries: set, options: off), log, size, repeats: options.repeats)
      var line = "\(pad(count, 8))  \(pad(scanner.patterns.count, 8))  \(pad(build, 7))  "
      line += "\(pad(on.wall, 12)) (\(pad(on.cpu, 4)))  \(pad(offRate.wall, 13)) (\(pad(offRate.cpu, 4)))  "
      line += "\(pad(found, 8))  \(pad(peak, 11))"
      if let ripgrep {
        let rate = try ripgrepRate(ripgrep, scanner: scanner, log: log, size: size, directory: directory)
        line += "  \(pad(rate.wall, 7)) (\(pad(rate.cpu, 4)))  \(pad(on.wall / max(rate.wall, 0.001), 5))x"
        line += " (\(pad(on.cpu / max(rate.cpu, 0.001), 4))x)"
      }
      if case .ready(let python, let script)? = hyperscan {
        let rate = try HyperscanBaseline.rate(
          python: python, script: script, scanner: scanner, log: log, directory: directory,
          repeats: options.repeats)
        line += "  \(pad(rate.wall, 7)) (\(pad(rate.cpu, 4)))  \(pad(on.wall / max(rate.wall, 0.001), 6))x"
        line +=
          " (\(pad(on.cpu / max(rate.cpu, 0.001), 4))x)  \(pad(offRate.wall / max(rate.wall, 0.001), 7))x"
        line += " (\(pad(offRate.cpu / max(rate.cpu, 0.001), 4))x)"
        // The scanner searches on two threads: Hyperscan on two threads too, side by side.
        let two = try HyperscanBaseline.rate(
          python: python, script: script, scanner: scanner, log: log, directory: directory,
          repeats: options.repeats, threads: 2)
        line += "  \(pad(two.wall, 7)) (\(pad(two.cpu, 4)))  \(pad(on.wall / max(two.wall, 0.001), 6))x"
      }
      io.writeOutput(line + "\n")
    }
  }

  /// One planted text per encoding family, each for a different canary.
  static func plantTexts(_ canaries: [Canary]) -> [(Canary, String, String)] {
    let token = canaries[0]
    let email = canaries[1]
    let uuid = canaries[2]
    let jwt = canaries[4]
    let password = canaries[5 % canaries.count]
    let unreserved = CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    let basic = Data("user:\(password.value)".utf8).base64EncodedString()
    let digest =
      LeakScanner(canaries: [uuid], options: ScanOptions(encodings: [.sha256Hex], minFragment: nil))
      .patterns.first?.bytes ?? []
    return [
      (token, "raw", "token=\(token.value)"),
      (password, "base64", "Authorization: Basic \(basic)"),
      (
        email, "percent",
        "email=\(email.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")"
      ),
      (uuid, "sha256-hex", "digest=\(String(decoding: digest, as: UTF8.self))"),
      (jwt, "fragment", "jwt=...\(jwt.value.dropFirst(56).prefix(24))..."),  // past the shared parts
      (
        email, "percent → base64",  // a form body kept as base64 `Data` by a JSONEncoder store
        "body=\(Data("username=\(email.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")&remember=1".utf8).base64EncodedString())"
      ),
    ]
  }

  /// A rate measured two ways: against the wall clock, and against the CPU time the process
  /// used (steadier on a machine shared with other jobs).
  struct Rate {
    var wall: Double
    var cpu: Double
  }

  /// Scans `log` `repeats` times and returns the best rates and the number of findings.
  static func timedScan(_ scanner: LeakScanner, _ log: URL, _ size: Int, repeats: Int) throws -> (Rate, Int) {
    var best = Rate(wall: 0, cpu: 0)
    var found = 0
    let megabytes = Double(size) / 1_048_576
    for _ in 0..<repeats {
      let cpuStart = cpuSeconds(children: false)
      let start = ContinuousClock.now
      let result = try scanner.scanFile(at: log, source: "synthetic.log")
      let wall = seconds(ContinuousClock.now - start)
      let cpu = cpuSeconds(children: false) - cpuStart
      best.wall = max(best.wall, megabytes / max(wall, 1e-9))
      best.cpu = max(best.cpu, megabytes / max(cpu, 1e-9))
      found = result.findings.count
      if ProcessInfo.processInfo.environment["CANARY_BENCH_DEBUG"] != nil {
        for finding in result.findings.prefix(20) {
          print(finding.encoding, finding.canary.location, finding.excerpt)
        }
      }
    }
    return (best, found)
  }

  /// User plus system CPU seconds of this process, or of its waited-for children.
  static func cpuSeconds(children: Bool) -> Double {
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
    #else
      getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    #endif
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }

  /// Runs ripgrep with the line-safe literals, as `canary patterns` prints them.
  static func ripgrepRate(_ rg: String, scanner: LeakScanner, log: URL, size: Int, directory: URL) throws
    -> Rate
  {
    let patternsFile = directory.appendingPathComponent("patterns-\(scanner.canaries.count).txt")
    var text = ""
    for pattern in scanner.patterns where !pattern.bytes.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 })
    {
      if let line = String(bytes: pattern.bytes, encoding: .utf8) { text += line + "\n" }
    }
    try Data(text.utf8).write(to: patternsFile)
    #if os(macOS) || os(Linux)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: rg)
      process.arguments = ["-F", "-f", patternsFile.path, "--count-matches", log.path]
      process.standardOutput = FileHandle.nullDevice
      let cpuStart = cpuSeconds(children: true)
      let start = ContinuousClock.now
      try process.run()
      process.waitUntilExit()
      let wall = seconds(ContinuousClock.now - start)
      let cpu = cpuSeconds(children: true) - cpuStart
      let megabytes = Double(size) / 1_048_576
      return Rate(wall: megabytes / max(wall, 1e-9), cpu: megabytes / max(cpu, 1e-9))
    #else
      throw ChildProcessSupport.Unavailable(tool: rg)
    #endif
  }

  static func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Resets the kernel's peak-RSS counter (Linux: `echo 5 > /proc/self/clear_refs`).
  static func resetPeakMemory() {
    try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
  }

  /// VmHWM from /proc/self/status in MB, or the getrusage maximum where /proc is missing.
  static func peakMemoryMB() -> Double {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    {
      return kilobytes / 1024
    }
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(RUSAGE_SELF, &usage)
      return Double(usage.ru_maxrss) / 1_048_576
    #else
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Double(usage.ru_maxrss) / 1024
    #endif
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  static func pad(_ value: some Any, _ width: Int) -> String {
    var text: String
    if let double = value as? Double {
      text = String(format: double >= 100 ? "%.0f" : "%.2f", double)
    } else {
      text = "\(value)"
    }
    if text.count < width { text = String(repeating: " ", count: width - text.count) + text }
    return text
  }
}

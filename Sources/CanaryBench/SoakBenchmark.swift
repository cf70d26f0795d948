import CanaryCLI
import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `canary-bench soak`: `canary serve` as its own process under abuse, its memory sampled every
/// second: first a flooding client and a slowloris group while a probe measures latency, then the
/// same with `wrk` on top; then how long it takes to stop.
enum SoakBenchmark {
  static let durationOption = Option<Int?>.integer(
    "--duration", placeholder: "SECONDS", help: "How long wrk runs.", defaultValue: "60",
    range: 1...86_400)

  static let abuseDurationOption = Option<Int?>.integer(
    "--abuse-duration", placeholder: "SECONDS", help: "How long the abuse runs alone first; 0 skips it.",
    defaultValue: "10", range: 0...86_400)

  static let connectionsOption = Option<Int?>.integer(
    "--connections", help: "wrk's connections.", defaultValue: "128", range: 1...100_000)

  static let threadsOption = Option<Int?>.integer(
    "--threads", help: "wrk's threads.", defaultValue: "2", range: 1...1024)

  static let slowlorisOption = Option<Int?>.integer(
    "--slowloris", help: "Slowloris connections.", defaultValue: "300", range: 0...100_000)

  static let slowlorisIntervalOption = Option<Int?>.integer(
    "--slowloris-interval", placeholder: "SECONDS",
    help: "Seconds between a slowloris connection's bytes.",
    defaultValue: "3", range: 1...3600)

  static let descriptorLimitOption = Option<Int?>.integer(
    "--descriptor-limit", help: "Run the server under prlimit --nofile=N:N.", range: 1...1_048_576)

  static let command = CommandSpec(
    name: "soak", abstract: "canary serve's memory and latency under wrk, a flood and slowloris.",
    discussion: """
      Starts `canary serve --manifest M --record R` (the canary executable beside this one) and, \
      against it:
        1. for --abuse-duration seconds: one client pipelining requests without reading, a group
           of --slowloris connections each sending one byte of a request head every
           --slowloris-interval seconds, and a probe sending one request every 10 ms on a
           keep-alive connection (latency p50/p99/max);
        2. for --duration seconds: the same, plus wrk -tT -cC against it;
      sampling the server's resident memory (VmRSS) every second, then stops it with SIGINT and \
      times the stop. --descriptor-limit runs the server under `prlimit --nofile=N:N` \
      (util-linux), so that the slowloris group outnumbers the descriptors it may open. Needs wrk \
      (apt-get install -y wrk): without it the benchmark is skipped. Run it from a release build: \
      swift build -c release && .build/release/canary-bench soak
      """,
    options: [
      durationOption, abuseDurationOption, connectionsOption, threadsOption, slowlorisOption,
      slowlorisIntervalOption, descriptorLimitOption,
    ],
    run: { parsed, io in
      var options = Options()
      options.duration = parsed[durationOption] ?? options.duration
      options.abuseDuration = parsed[abuseDurationOption] ?? options.abuseDuration
      options.connections = parsed[connectionsOption] ?? options.connections
      options.threads = parsed[threadsOption] ?? options.threads
      options.slowloris = parsed[slowlorisOption] ?? options.slowloris
      options.slowlorisInterval = parsed[slowlorisIntervalOption] ?? options.slowlorisInterval
      options.descriptorLimit = parsed[descriptorLimitOption]
      return await run(options, io: io)
    })

  struct Options {
    var duration = 60
    var abuseDuration = 10
    var connections = 128
    var threads = 2
    var slowloris = 300
    var slowlorisInterval = 3
    var descriptorLimit: Int?
  }

  static func run(_ options: Options, io: CommandIO) async -> Int32 {
    guard let wrkPath = ServeBenchmarkTools.find("wrk") else {
      io.writeOutput("canary-bench soak: skipped, wrk is not installed (apt-get install -y wrk)\n")
      return ExitStatus.success
    }
    guard let executable = canaryExecutable() else {
      io.writeError(
        "canary-bench soak: cannot find the canary executable beside this one to start 'canary serve'"
          + " (build both: swift build -c release)\n")
      return ExitStatus.usage
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-soak-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server: ServeProcess
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var launcher: [String] = []
      if let limit = options.descriptorLimit {
        guard let prlimit = ServeBenchmarkTools.find("prlimit") else {
          io.writeOutput("canary-bench soak: skipped, --descriptor-limit needs prlimit (util-linux)\n")
          return ExitStatus.success
        }
        launcher = [prlimit, "--nofile=\(limit):\(limit)", "--"]
      }
      server = try ServeProcess(executable: executable, directory: directory, launcher: launcher)
    } catch {
      io.writeError("canary-bench soak: cannot start canary serve: \(error)\n")
      return ExitStatus.usage
    }
    io.writeOutput(
      "canary-bench soak: canary serve (pid \(server.pid)) at 127.0.0.1:\(server.port)"
        + (options.descriptorLimit.map { ", descriptor limit \($0)" } ?? "") + ", "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores\n")
    let sampler = MemorySampler(pid: server.pid)
    sampler.start()

    let flooder = SoakClients.Flooder(port: server.port)
    let slowloris = SoakClients.Slowloris(
      port: server.port, count: options.slowloris, interval: .seconds(options.slowlorisInterval))
    let probe = SoakClients.Probe(port: server.port, interval: .milliseconds(10))
    flooder.start()
    slowloris.start()
    probe.start()
    if options.abuseDuration > 0 {
      try? await Task.sleep(for: .seconds(options.abuseDuration))
      let abused = probe.stop()
      report("flood + \(options.slowloris) slowloris, no wrk, \(options.abuseDuration) s", abused, io: io)
      probe.start()
    }
    let wrk = try? ServeBenchmarkTools.wrk(
      wrkPath, url: "http://127.0.0.1:\(server.port)/", threads: options.threads,
      connections: options.connections, duration: "\(options.duration)s")
    let loaded = probe.stop()
    let flooded = flooder.stop()
    let slow = slowloris.stop()
    if let wrk {
      io.writeOutput(
        String(
          format: "wrk -t%d -c%d -d%ds: %.0f req/s, latency avg %@, p50 %@, p99 %@%@\n", options.threads,
          options.connections, options.duration, wrk.requestsPerSecond, wrk.averageLatency, wrk.medianLatency,
          wrk.p99Latency, wrk.errors.map { " (\($0))" } ?? ""))
    } else {
      io.writeOutput("wrk failed to run\n")
    }
    report(
      "flood + \(options.slowloris) slowloris + wrk -c\(options.connections), \(options.duration) s", loaded,
      io: io)
    io.writeOutput(
      "flooder: \(flooded / 1024) KiB of pipelined requests accepted by the server without reading an answer\n"
        + "slowloris: \(slow.connected) connections opened, \(slow.closedByServer) closed by the server "
        + "(\(slow.answered408) with 408), \(slow.refused) refused\n")
    let samples = sampler.stop()
    let stopSeconds = server.stop()
    let megabytes = samples.map { Double($0) / 1024 }
    if let peak = megabytes.max(), let last = megabytes.last, let first = megabytes.first {
      let series = stride(from: 0, to: megabytes.count, by: max(1, megabytes.count / 12)).map {
        String(format: "%.0f", megabytes[$0])
      }
      io.writeOutput(
        String(
          format:
            "RSS of canary serve, %d samples (1/s): first %.1f MB, peak %.1f MB, last %.1f MB; series (MB): %@\n",
          samples.count, first, peak, last, series.joined(separator: " ")))
    } else {
      io.writeOutput("RSS not sampled (needs /proc/<pid>/status)\n")
    }
    io.writeOutput(String(format: "stop: SIGINT to exit in %.3f s\n", stopSeconds))
    if let summary = server.summaryLine() { io.writeOutput("serve summary: \(summary)\n") }
    return ExitStatus.success
  }

  private static func report(_ label: String, _ result: SoakClients.Probe.Result, io: CommandIO) {
    let latencies = result.latencies
    guard !latencies.isEmpty else {
      io.writeOutput("probe (\(label)): no request answered, \(result.failures) failures\n")
      return
    }
    io.writeOutput(
      String(
        format: "probe (%@): %d requests, p50 %.3f ms, p99 %.3f ms, max %.3f ms, %d failed or reconnected\n",
        label, latencies.count, latencies.percentile(0.5) * 1000, latencies.percentile(0.99) * 1000,
        (latencies.max() ?? 0) * 1000, result.failures))
  }

  /// The `canary` executable built beside this one, which `soak` starts as `canary serve`.
  static func canaryExecutable() -> String? {
    guard let current = currentExecutable() else { return nil }
    let canary = URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent("canary")
      .path
    return FileManager.default.isExecutableFile(atPath: canary) ? canary : nil
  }

  /// The path of the running executable.
  static func currentExecutable() -> String? {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    return Bundle.main.executablePath
  }

  /// `canary serve` in a child process, with a small manifest and its record in `directory`.
  final class ServeProcess {
    let process = Process()
    let port: UInt16
    let record: URL
    var pid: Int32 { process.processIdentifier }

    init(executable: String, directory: URL, launcher: [String] = []) throws {
      let manifest = directory.appendingPathComponent("manifest.json")
      record = directory.appendingPathComponent("record.jsonl")
      try Data(
        #"{"version":1,"canaries":[{"value":"cnrySoakRequest0001","location":"request.header[X-Key]"},{"value":"cnrySoakResponse002","location":"response.header[X-Back]"}]}"#
          .utf8
      ).write(to: manifest)
      let command = launcher + [executable, "serve", "--manifest", manifest.path, "--record", record.path]
      process.executableURL = URL(fileURLWithPath: command[0])
      process.arguments = Array(command.dropFirst())
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      var line: [UInt8] = []
      while let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != 10 {
        line.append(byte)
      }
      guard let url = URL(string: String(decoding: line, as: UTF8.self)), let port = url.port else {
        process.terminate()
        throw BenchError(description: "canary serve printed no base URL")
      }
      self.port = UInt16(port)
    }

    /// Sends SIGINT and returns the seconds until the process exited.
    func stop() -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The record's last line (its summary), without the canary lists.
    func summaryLine() -> String? {
      guard let handle = try? FileHandle(forReadingFrom: record) else { return nil }
      defer { try? handle.close() }
      let size = (try? handle.seekToEnd()) ?? 0
      try? handle.seek(toOffset: size > 65_536 ? size - 65_536 : 0)
      let tail = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
      guard let last = tail.split(separator: "\n").last else { return nil }
      return String(last.prefix { $0 != "[" }.dropLast(",\"requestCanaries\":".count))
    }
  }

  /// Samples a process's resident memory (VmRSS, in KiB) once a second.
  final class MemorySampler: @unchecked Sendable {
    let pid: Int32
    private let samples = Locked([Int]())
    private let stopFlag = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(pid: Int32) { self.pid = pid }

    func start() {
      Thread { [self] in
        while !stopFlag.current {
          if let kib = Self.residentKiB(pid: pid) { samples.withLock { $0.append(kib) } }
          for _ in 0..<20 where !stopFlag.current { Thread.sleep(forTimeInterval: 0.05) }
        }
        done.signal()
      }.start()
    }

    func stop() -> [Int] {
      stopFlag.withLock { $0 = true }
      done.wait()
      if let kib = Self.residentKiB(pid: pid) { samples.withLock { $0.append(kib) } }
      return samples.current
    }

    static func residentKiB(pid: Int32) -> Int? {
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
        return nil
      }
      for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
      }
      return nil
    }
  }
}

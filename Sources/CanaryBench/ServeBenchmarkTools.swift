import CanaryCLI
import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// External tools `canary-bench serve` drives: wrk, and nginx as the reference server.
enum ServeBenchmarkTools {
  /// wrk's headline figures.
  struct WrkResult {
    var requestsPerSecond: Double
    var averageLatency: String
    var medianLatency: String
    var p99Latency: String
    var errors: String?
    var output: String
  }

  /// The full path of `name` on PATH, or nil.
  static func find(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
    return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs `executable` with `arguments` and returns its standard output and status.
  static func run(_ executable: String, _ arguments: [String]) throws -> (output: String, status: Int32) {
    #if os(macOS) || os(Linux)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    #else
      throw ChildProcessSupport.Unavailable(tool: executable)
    #endif
  }

  /// Runs wrk against `url` and parses its summary.
  static func wrk(
    _ wrkPath: String, url: String, threads: Int, connections: Int, duration: String, cpu: Int? = nil
  ) throws -> WrkResult {
    let (executable, arguments) = CPUPinning.command(
      wrkPath, ["-t\(threads)", "-c\(connections)", "-d\(duration)", "--latency", url], cpu: cpu)
    let (output, _) = try run(executable, arguments)
    var result = WrkResult(
      requestsPerSecond: 0, averageLatency: "?", medianLatency: "?", p99Latency: "?", errors: nil,
      output: output)
    for line in output.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      guard let first = fields.first else { continue }
      switch first {
      case "Requests/sec:": result.requestsPerSecond = Double(fields.last ?? "") ?? 0
      case "Latency" where fields.count >= 2 && fields[1] != "Distribution": result.averageLatency = fields[1]
      case "50%" where fields.count >= 2: result.medianLatency = fields[1]
      case "99%" where fields.count >= 2: result.p99Latency = fields[1]
      case "Socket", "Non-2xx":
        result.errors = (result.errors.map { $0 + "; " } ?? "") + line.trimmingCharacters(in: .whitespaces)
      default: break
      }
    }
    return result
  }

  /// A free loopback port, found by starting a server on port 0 and stopping it (nginx cannot
  /// report the port it was given).
  static func freeLoopbackPort() -> UInt16? {
    let probe = LoopbackServer()
    guard (try? probe.start()) != nil else { return nil }
    defer { probe.stop() }
    return probe.port
  }

  #if os(macOS) || os(Linux)
    /// nginx serving `body` on 127.0.0.1:`port` from a temporary prefix, with one worker process
    /// (on `cpu` when given).
    final class Nginx {
      let port: UInt16
      let directory: URL
      let process = Process()

      init(executable: String, port: UInt16, body: String, cpu: Int? = nil) throws {
        self.port = port
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
          "canary-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = """
          worker_processes 1;
          daemon off;
          pid \(directory.path)/nginx.pid;
          error_log \(directory.path)/error.log;
          events { worker_connections 1024; }
          http {
            access_log off;
            keepalive_requests 1000000;
            client_body_temp_path \(directory.path)/body;
            proxy_temp_path \(directory.path)/proxy;
            fastcgi_temp_path \(directory.path)/fastcgi;
            uwsgi_temp_path \(directory.path)/uwsgi;
            scgi_temp_path \(directory.path)/scgi;
            server {
              listen 127.0.0.1:\(port);
              location / { default_type text/plain; return 200 "\(body)"; }
            }
          }
          """
        let configURL = directory.appendingPathComponent("nginx.conf")
        try Data(config.utf8).write(to: configURL)
        // taskset execs nginx: the process stays nginx's master, whose worker inherits the CPU.
        let (program, arguments) = CPUPinning.command(
          executable, ["-p", directory.path, "-c", configURL.path], cpu: cpu)
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
      }

      /// Waits until nginx answers, up to about two seconds.
      func waitUntilListening() -> Bool {
        for _ in 0..<200 {
          if (try? SequentialLatencyClient(port: port).measure(count: 1)) != nil { return true }
          if !process.isRunning { return false }
          usleep(10_000)
        }
        return false
      }

      /// Stops nginx (TERM, then KILL after two seconds) and removes its directory.
      func stop() {
        let pidFile = directory.appendingPathComponent("nginx.pid")
        let masterFromFile = (try? String(contentsOf: pidFile, encoding: .utf8))
          .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let pids = Set([process.processIdentifier] + (masterFromFile.map { [$0] } ?? []))
        for pid in pids where pid > 0 { kill(pid, SIGTERM) }
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        if process.isRunning {
          for pid in pids where pid > 0 { kill(pid, SIGKILL) }
          process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
      }
    }
  #endif
}

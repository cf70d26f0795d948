import CanaryCLI
import CanaryTrap
import Foundation

/// `canary-bench serve`: the loopback server under wrk (keep-alive), one-at-a-time latency over
/// one connection, and the same figures for nginx when it is installed.
enum ServeBenchmark {
  static let durationOption = Option<String?>.value(
    "--duration", placeholder: "D", help: "How long wrk runs, as wrk takes it (10s, 1m).",
    defaultValue: "10s",
    check: { text in
      text.isEmpty || Int(text.dropLast()) == nil && Int(text) == nil
        ? "--duration needs a length such as 10s or 1m, not '\(text)'" : nil
    })

  static let threadsOption = Option<Int?>.integer(
    "--threads", help: "wrk's threads.", defaultValue: "2", range: 1...1024)

  static let connectionsOption = Option<Int?>.integer(
    "--connections", help: "wrk's connections.", defaultValue: "10", range: 1...100_000)

  static let requestsOption = Option<Int?>.integer(
    "--requests", help: "Sequential requests for the median round trip.", defaultValue: "2000",
    range: 1...10_000_000)

  static let noRecordOption = Option<Bool>.flag(
    "--no-record", help: "Run the server with request recording off.")

  static let serverCPUOption = Option<Int?>.integer(
    "--server-cpu",
    help: "Pin the server's I/O thread, and nginx, to this CPU (Linux; taskset for nginx).",
    range: 0...1023)

  static let clientCPUOption = Option<Int?>.integer(
    "--client-cpu", help: "Pin the sequential client, and wrk, to this CPU (Linux; taskset for wrk).",
    range: 0...1023)

  static let command = CommandSpec(
    name: "serve", abstract: "Loopback server requests/s under wrk.",
    discussion: """
      Starts the loopback server with a trivial route and measures:
        1. wrk -tT -cC -dD --latency against it (keep-alive), if wrk is installed;
        2. the median round trip of N requests sent one at a time over one keep-alive connection;
        3. the same two figures for nginx (one worker, same body), if nginx is installed.
      Run it from a release build: swift run -c release canary-bench serve
      """,
    options: [
      durationOption, threadsOption, connectionsOption, requestsOption, noRecordOption, serverCPUOption,
      clientCPUOption,
    ],
    run: { parsed, io in
      var options = Options()
      options.duration = parsed[durationOption] ?? options.duration
      options.threads = parsed[threadsOption] ?? options.threads
      options.connections = parsed[connectionsOption] ?? options.connections
      options.requests = parsed[requestsOption] ?? options.requests
      options.records = !parsed[noRecordOption]
      options.serverCPU = parsed[serverCPUOption]
      options.clientCPU = parsed[clientCPUOption]
      return await run(options, io: io)
    })

  static let body = "hello from canary"

  struct Options {
    var duration = "10s"
    var threads = 2
    var connections = 10
    var requests = 2000
    var records = true
    /// The CPU of the server thread and of nginx, or nil to leave them to the scheduler.
    var serverCPU: Int?
    /// The CPU of the sequential client and of wrk, or nil to leave them to the scheduler.
    var clientCPU: Int?
  }

  static func run(_ options: Options, io: CommandIO) async -> Int32 {
    var configuration = LoopbackServer.Configuration()
    configuration.recordsRequests = options.records
    let server = LoopbackServer(configuration: configuration)
    server.on(.get, "/", respond: .text(body))
    // The I/O thread inherits the affinity of the thread that starts it; this thread then becomes
    // the sequential client (the whole run is synchronous, so it stays on one thread).
    if let cpu = options.serverCPU, !CPUPinning.pinCurrentThread(to: cpu) {
      io.writeError("canary-bench serve: cannot pin to CPU \(cpu)\n")
      return ExitStatus.usage
    }
    defer { CPUPinning.pinCurrentThread(to: nil) }
    do {
      try server.start()
    } catch {
      io.writeError("canary-bench serve: cannot start the server: \(error)\n")
      return ExitStatus.usage
    }
    defer { server.stop() }
    if let cpu = options.clientCPU {
      guard CPUPinning.pinCurrentThread(to: cpu) else {
        io.writeError("canary-bench serve: cannot pin to CPU \(cpu)\n")
        return ExitStatus.usage
      }
    } else if options.serverCPU != nil {
      CPUPinning.pinCurrentThread(to: nil)
    }
    let placement = [
      options.serverCPU.map { "server and nginx on CPU \($0)" },
      options.clientCPU.map { "clients on CPU \($0)" },
    ].compactMap { $0 }
    io.writeOutput(
      "canary-bench serve: LoopbackServer at \(server.baseURL) (recording \(options.records ? "on" : "off")), "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores"
        + (placement.isEmpty ? "" : ", " + placement.joined(separator: ", ")) + "\n")
    let wrkPath = ServeBenchmarkTools.find("wrk")
    let ours = measure(port: server.port, name: "LoopbackServer", wrkPath: wrkPath, options: options, io: io)
    #if os(macOS) || os(Linux)
      guard let nginxPath = ServeBenchmarkTools.find("nginx") else {
        io.writeOutput("nginx not installed: no reference figures (apt-get install -y nginx)\n")
        return ExitStatus.success
      }
      guard let port = ServeBenchmarkTools.freeLoopbackPort(),
        let nginx = try? ServeBenchmarkTools.Nginx(
          executable: nginxPath, port: port, body: body, cpu: options.serverCPU)
      else {
        io.writeOutput("nginx could not be started: no reference figures\n")
        return ExitStatus.success
      }
      defer { nginx.stop() }
      guard nginx.waitUntilListening() else {
        io.writeOutput("nginx did not start listening on 127.0.0.1:\(port): no reference figures\n")
        return ExitStatus.success
      }
      let reference = measure(
        port: port, name: "nginx (1 worker)", wrkPath: wrkPath, options: options, io: io)
      if let ourRate = ours.requestsPerSecond, let theirRate = reference.requestsPerSecond, theirRate > 0 {
        io.writeOutput(String(format: "ratio LoopbackServer/nginx under wrk: %.2f\n", ourRate / theirRate))
      }
      if let ourMedian = ours.medianSeconds, let theirMedian = reference.medianSeconds, theirMedian > 0 {
        io.writeOutput(
          String(format: "ratio LoopbackServer/nginx sequential median: %.2f\n", ourMedian / theirMedian))
      }
    #else
      io.writeOutput("nginx reference: \(ChildProcessSupport.Unavailable(tool: "nginx"))\n")
    #endif
    return ExitStatus.success
  }

  struct Figures {
    var requestsPerSecond: Double?
    var medianSeconds: Double?
  }

  private static func measure(port: UInt16, name: String, wrkPath: String?, options: Options, io: CommandIO)
    -> Figures
  {
    var figures = Figures()
    let url = "http://127.0.0.1:\(port)/"
    if let wrkPath {
      do {
        let result = try ServeBenchmarkTools.wrk(
          wrkPath, url: url, threads: options.threads, connections: options.connections,
          duration: options.duration, cpu: options.clientCPU)
        figures.requestsPerSecond = result.requestsPerSecond
        io.writeOutput(
          String(
            format: "%@: wrk -t%d -c%d -d%@: %.0f req/s, latency avg %@, p50 %@, p99 %@%@\n", name,
            options.threads,
            options.connections, options.duration, result.requestsPerSecond, result.averageLatency,
            result.medianLatency, result.p99Latency, result.errors.map { " (\($0))" } ?? ""))
      } catch {
        io.writeOutput("\(name): wrk failed: \(error)\n")
      }
    } else {
      io.writeOutput("wrk not installed: skipping the keep-alive load test (apt-get install -y wrk)\n")
    }
    do {
      let latencies = try SequentialLatencyClient(port: port).measure(count: options.requests)
      figures.medianSeconds = latencies.percentile(0.5)
      io.writeOutput(
        String(
          format: "%@: %d sequential requests on one keep-alive connection: median %.3f ms, p99 %.3f ms\n",
          name,
          options.requests, latencies.percentile(0.5) * 1000, latencies.percentile(0.99) * 1000))
    } catch {
      io.writeOutput("\(name): sequential client failed: \(error)\n")
    }
    return figures
  }
}

/// `canary bench`: measures CanaryTrap against reference tools; run it from a release build.
enum BenchCommand {
  /// One benchmark: its name, a one-line abstract, and what it runs.
  struct Benchmark: Sendable {
    let name: String
    let abstract: String
    let run: @Sendable ([String], CommandIO) async -> Int32
  }

  static let benchmarks: [Benchmark] = [
    Benchmark(name: "scan", abstract: "Scanner throughput against ripgrep.", run: ScanBenchmark.run),
    Benchmark(
      name: "scan-gzip", abstract: "Scanning a .gz log against gzip -dc > /dev/null.",
      run: ScanGzipBenchmark.run),
    Benchmark(name: "serve", abstract: "Loopback server requests/s under wrk.", run: ServeBenchmark.run),
    Benchmark(
      name: "soak", abstract: "canary serve's memory and latency under wrk, a flood and slowloris.",
      run: SoakBenchmark.run),
    Benchmark(
      name: "matrix", abstract: "Wall time of the full matrix through URLSession.", run: MatrixBenchmark.run),
    Benchmark(
      name: "load", abstract: "10,000 exchanges through URLSession, 64 in flight.", run: LoadBenchmark.run),
  ]

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    guard let name = arguments.first, let benchmark = benchmarks.first(where: { $0.name == name }) else {
      let list = benchmarks.map { "  \($0.name)  \($0.abstract)" }.joined(separator: "\n")
      io.writeError("USAGE: canary bench <benchmark> [options]\n\nBENCHMARKS:\n\(list)\n")
      return ExitStatus.usage
    }
    return await benchmark.run(Array(arguments.dropFirst()), io)
  }
}

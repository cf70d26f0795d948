import CanaryCLI

/// `canary-bench`: measures CanaryTrap against reference tools; run it from a release build. It is
/// its own executable so that the shipping `canary` carries no benchmark code.
public enum BenchTool {
  /// Every benchmark, in the order help lists them.
  static let benchmarks: [CommandSpec] = [
    ScanBenchmark.command,
    ScaleBenchmark.command,
    ScanGzipBenchmark.command,
    ServeBenchmark.command,
    SoakBenchmark.command,
    MatrixBenchmark.command,
    LoadBenchmark.command,
  ]

  /// The root of the benchmark tool.
  static let root = CommandSpec(
    name: "canary-bench", abstract: "Measure CanaryTrap against reference tools (run a release build).",
    discussion: """
      Build and run it in release mode:
        swift build -c release && .build/release/canary-bench scan --size 200
      Figures and the commands that made them are in BENCHMARKS.md. 'soak' starts the canary \
      executable built beside this one.
      """,
    subcommands: benchmarks)

  /// Runs the tool with `arguments` (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(root, arguments, commandName: "canary-bench", io: io)
  }
}

/// A benchmark that could not run, said in one line.
struct BenchError: Error, CustomStringConvertible {
  var description: String
}

/// `canary bench scan`: not built yet.
enum ScanBenchmark {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary bench scan: not built yet.\n")
    return ExitStatus.usage
  }
}

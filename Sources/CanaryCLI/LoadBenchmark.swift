/// `canary bench load`: not built yet.
enum LoadBenchmark {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary bench load: not built yet.\n")
    return ExitStatus.usage
  }
}

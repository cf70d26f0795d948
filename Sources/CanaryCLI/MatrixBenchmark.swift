/// `canary bench matrix`: not built yet.
enum MatrixBenchmark {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary bench matrix: not built yet.\n")
    return ExitStatus.usage
  }
}

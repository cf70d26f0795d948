/// `canary bench serve`: not built yet.
enum ServeBenchmark {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary bench serve: not built yet.\n")
    return ExitStatus.usage
  }
}

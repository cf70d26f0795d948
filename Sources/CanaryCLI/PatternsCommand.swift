/// `canary patterns`: print every literal byte string the scanner searches for.
enum PatternsCommand {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary patterns: not built yet.\n")
    return ExitStatus.usage
  }
}

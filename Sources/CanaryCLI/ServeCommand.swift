/// `canary serve`: serve scripted canary exchanges on loopback for an app in another process.
enum ServeCommand {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary serve: not built yet.\n")
    return ExitStatus.usage
  }
}

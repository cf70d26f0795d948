/// `canary scan`: scan files, directories or standard input for the canaries of a manifest.
enum ScanCommand {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary scan: not built yet.\n")
    return ExitStatus.usage
  }
}

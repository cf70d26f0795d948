/// `canary init`: write a canary suite template into your test folder.
enum InitCommand {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError("canary init: not built yet.\n")
    return ExitStatus.usage
  }
}

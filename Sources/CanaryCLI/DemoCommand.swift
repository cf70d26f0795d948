/// `canary demo`: runs the canary matrix against the example apps.
enum DemoCommand {
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    io.writeError(
      "canary demo: the demo is not built yet; it arrives with the planting matrix and the example apps.\n")
    return ExitStatus.usage
  }
}

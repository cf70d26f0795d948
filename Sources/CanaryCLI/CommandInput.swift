#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command reads, by its identity on its device, so that no output of the same command
/// can be that file under another name (a symbolic link, a hard link, `./x` for `x`).
struct CommandInput: Hashable, Sendable {
  /// The name the refusal shows, as the user gave it.
  let name: String
  let identity: FileIdentity

  /// The file at `path` (links followed), or `nil` when there is none to protect.
  static func file(_ path: ScanPath) -> CommandInput? {
    guard case .success(let info) = path.status() else { return nil }
    return CommandInput(name: path.displayName, identity: FileIdentity(info))
  }

  /// The files at `paths` that exist.
  static func files(_ paths: [ScanPath]) -> [CommandInput] { paths.compactMap { file($0) } }

  /// Standard input, when it is something with an identity (a file, a FIFO, a device).
  static func standardInput() -> CommandInput? {
    FileIdentity(descriptor: 0).map { CommandInput(name: "standard input", identity: $0) }
  }

  /// What `canary scan` and `canary baseline` read of their PATHs: every file found, and
  /// standard input for `-`.
  static func scanned(_ inputs: [ScanInputWalker.Input]) -> [CommandInput] {
    inputs.compactMap { input in
      switch input {
      case .file(let path, let identity, _): CommandInput(name: path.displayName, identity: identity)
      case .standardInput: standardInput()
      case .unreadable: nil
      }
    }
  }
}

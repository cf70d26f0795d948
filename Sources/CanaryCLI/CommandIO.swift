import Foundation

/// The streams a command reads and writes, injectable so tests can capture them.
public struct CommandIO: Sendable {
  /// Writes to standard output.
  public var writeOutput: @Sendable (String) -> Void
  /// Writes to standard error.
  public var writeError: @Sendable (String) -> Void
  /// Reads all of standard input.
  public var readInput: @Sendable () -> Data

  /// Creates streams from closures.
  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readInput: @escaping @Sendable () -> Data
  ) {
    self.writeOutput = writeOutput
    self.writeError = writeError
    self.readInput = readInput
  }

  /// The process's real standard streams.
  public static let standard = CommandIO(
    writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) },
    readInput: { FileHandle.standardInput.readDataToEndOfFile() })
}

/// Exit statuses shared by every subcommand.
public enum ExitStatus {
  /// Success, and for `scan`: no leak.
  public static let success: Int32 = 0
  /// Leaks found.
  public static let leaks: Int32 = 1
  /// Bad usage or unreadable input.
  public static let usage: Int32 = 2
}

import Foundation

/// The streams a command reads and writes, injectable so tests can capture them.
public struct CommandIO: Sendable {
  /// Writes to standard output.
  public var writeOutput: @Sendable (String) -> Void
  /// Writes to standard error.
  public var writeError: @Sendable (String) -> Void
  /// Reads the next chunk of standard input; an empty chunk means its end.
  public var readInputChunk: @Sendable () -> Data

  /// Creates streams from closures.
  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readInputChunk: @escaping @Sendable () -> Data
  ) {
    self.writeOutput = writeOutput
    self.writeError = writeError
    self.readInputChunk = readInputChunk
  }

  /// The process's real standard streams.
  public static let standard = CommandIO(
    writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) },
    readInputChunk: { FileHandle.standardInput.readData(ofLength: 1 << 20) })
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

import Foundation

/// Runs a real tool with bytes on its standard input and returns its standard output, or nil when
/// the tool is not installed (the caller records that its check did not run).
public enum ExternalTool {
  /// Runs `tool` with `arguments` and `input` on its standard input; nil when it is missing or fails.
  public static func run(_ tool: String, _ arguments: [String], input: Data) throws -> Data? {
    #if os(macOS) || os(Linux)
      guard let path = ExternalTools.path(of: tool) else { return nil }
      let process = TestProcess()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments
      let stdin = Pipe()
      let stdout = Pipe()
      process.standardInput = stdin
      process.standardOutput = stdout
      try ChildProcessLaunch.run(process)
      // Write on another thread so a large output cannot deadlock against a full input pipe.
      let writer = Thread {
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
      }
      writer.start()
      let output = stdout.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return process.terminationStatus == 0 ? output : nil
    #else
      return nil
    #endif
  }
}

import CanaryTrap
import Foundation

@testable import CanaryCLI

/// Captures what a command writes to its streams, and feeds it a fixed standard input.
final class CapturedIO: Sendable {
  private let output = Locked("")
  private let error = Locked("")
  let input: Data

  init(input: Data = Data()) { self.input = input }

  var io: CommandIO {
    CommandIO(
      writeOutput: { text in self.output.withLock { $0 += text } },
      writeError: { text in self.error.withLock { $0 += text } },
      readInput: { self.input })
  }

  var standardOutput: String { output.current }
  var standardError: String { error.current }
}

import CanaryTrap
import Foundation

@testable import CanaryCLI

/// Captures what `scan` and `patterns` write, and feeds them a fixed standard input.
final class ScanCapturedIO: Sendable {
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

  var standardOutput: String { output.withLock { $0 } }
  var standardError: String { error.withLock { $0 } }
}

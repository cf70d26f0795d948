import CanaryTrap
import CanaryTrapPrimitives
import Foundation

@testable import CanaryCLI

/// Captures what a command writes to its streams, and feeds it a fixed standard input in chunks.
final class CapturedIO: Sendable {
  private let output = Locked("")
  private let error = Locked("")
  private let unread: Locked<Data>
  private let chunkSize: Int

  init(input: Data = Data(), chunkSize: Int = 7) {
    unread = Locked(input)
    self.chunkSize = chunkSize
  }

  var io: CommandIO {
    CommandIO(
      writeOutput: { text in self.output.withLock { $0 += text } },
      writeError: { text in self.error.withLock { $0 += text } },
      readInputChunk: {
        self.unread.withLock { unread in
          let chunk = unread.prefix(self.chunkSize)
          unread = unread.dropFirst(chunk.count)
          return Data(chunk)
        }
      })
  }

  var standardOutput: String { output.current }
  var standardError: String { error.current }
}

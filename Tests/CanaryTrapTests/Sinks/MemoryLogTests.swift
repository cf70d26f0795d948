import Foundation
import Testing

@testable import CanaryTrap

@Suite struct MemoryLogTests {
  @Test func linesWrittenByALoggerClosureAreCollected() async throws {
    let canary = SinkTestSupport.canary()
    let log = MemoryLog(name: "app-log")
    let logger = log.asClosure
    let contents = try await SinkTestSupport.capture(log) {
      logger("GET https://api.example.com/me?token=\(canary)")
      log.write(bytes: Data("raw:\(canary)".utf8))
    }
    #expect(contents.map(\.name) == ["app-log"])
    #expect(try SinkTestSupport.anyContains(contents, "token=\(canary)\n"))
    #expect(log.lines == ["GET https://api.example.com/me?token=\(canary)", "raw:\(canary)"])
  }

  @Test func aLogWithoutTheCanaryHoldsOnlyWhatWasWritten() async throws {
    let canary = SinkTestSupport.canary()
    let log = MemoryLog()
    let contents = try await SinkTestSupport.capture(log) {
      log.write("GET https://api.example.com/me?token=<redacted>")
    }
    #expect(contents.map(\.name) == ["memory-log"])
    #expect(try !SinkTestSupport.anyContains(contents, canary))
    #expect(
      try SinkTestSupport.bytes(of: contents[0])
        == Data("GET https://api.example.com/me?token=<redacted>\n".utf8))
  }

  @Test func concurrentWritersLoseNoLine() async throws {
    let log = MemoryLog()
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          for line in 0..<250 { log.write("w\(writer)-\(line)") }
        }
      }
    }
    #expect(log.lines.count == 2000)
    #expect(Set(log.lines).count == 2000)
    #expect(log.data.count == log.lines.reduce(0) { $0 + $1.utf8.count + 1 })
  }
}

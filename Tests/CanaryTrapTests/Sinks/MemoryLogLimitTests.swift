import Foundation
import Testing

@testable import CanaryTrap

/// A memory log keeps at most its limit, counts what it drops, and a scope whose window lost a
/// write cannot be clean for that log.
@Suite("Memory log limit")
struct MemoryLogLimitTests {
  private static let quiet = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)

  @Test("writes past the byte limit are dropped whole and counted; what fits is kept")
  func bytesPastTheLimitAreDroppedAndCounted() {
    let log = MemoryLog(name: "small", limit: .init(maxBytes: 20, maxLines: 100))
    log.write("0123456789")  // 11 bytes with its newline
    log.write("abcdefgh")  // 9 bytes: 20 in all, exactly the limit
    log.write("x")  // 2 bytes: dropped
    log.write(bytes: Data("yz".utf8))  // 2 bytes: dropped
    #expect(log.lines == ["0123456789", "abcdefgh"])
    #expect(log.data.count == 20)
    #expect(log.droppedBytes == 4)
    #expect(log.droppedWrites == 2)
  }

  @Test("writes past the line limit are dropped and counted")
  func linesPastTheLimitAreDroppedAndCounted() {
    let log = MemoryLog(name: "few", limit: .init(maxBytes: 1 << 20, maxLines: 3))
    for index in 0..<5 { log.write("line \(index)") }
    #expect(log.lines == ["line 0", "line 1", "line 2"])
    #expect(log.droppedWrites == 2 && log.droppedBytes == 14)
  }

  /// One scope: a delivered canary, then the app writes `lines` safe lines of 100 bytes (and the
  /// canary after them when `leakAfter`) to the scope's memory log of `limit`.
  private func run(limit: MemoryLog.Limit, lines: Int, leakFirst: Bool = false) async -> LeakReport {
    let (_, report) = await CanaryTrap.withScope(title: "memory-limit", configuration: Self.quiet) { trap in
      let value = try await DeliveredCanary.send(in: trap)
      let log = trap.memoryLog("app-log", limit: limit)
      if leakFirst { log.write("X-Twin-Token: \(value)") }
      for index in 0..<lines {
        log.write("GET /api/users/\(index) 200 " + String(repeating: "-", count: 80))
      }
    }
    return report
  }

  @Test("a scope whose memory log dropped writes past its limit is inconclusive, naming what it dropped")
  func droppedWritesMakeTheRunInconclusive() async throws {
    let report = await run(limit: .init(maxBytes: 1_000, maxLines: 1_000), lines: 50)
    #expect(report.verdict == .inconclusive)
    let source = try #require(report.sources.first { $0.name == "app-log" })
    guard case .failed(let reason) = source.status else {
      Issue.record("app-log should have failed: \(source.status)")
      return
    }
    #expect(
      reason.hasPrefix("memory log app-log dropped ")
        && reason.contains("past its limit of 1000 bytes or 1000 lines"),
      "\(reason)")
  }

  @Test("twin: the same writes under the default limit keep everything and are clean")
  func sameWritesUnderTheDefaultLimitAreClean() async {
    let report = await run(limit: .default, lines: 50)
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  @Test("a leak kept before the limit is still found: leaky beats the dropped tail")
  func leakBeforeTheLimitIsStillFound() async {
    let report = await run(limit: .init(maxBytes: 1_000, maxLines: 1_000), lines: 50, leakFirst: true)
    #expect(report.verdict == .leaky)
    #expect(report.findings.map(\.source) == ["app-log"])
  }

  @Test("a shared log's drops count only against the windows open when they happened")
  func dropsCountPerWindow() async throws {
    let log = MemoryLog(name: "shared", limit: .init(maxBytes: 10, maxLines: 100))
    let early = SinkWindow.next()
    try await log.begin(early)
    log.write(String(repeating: "a", count: 20))  // dropped while only `early` is open
    let late = SinkWindow.next()
    try await log.begin(late)
    log.write("ok")
    #expect(log.droppedReason(in: early)?.contains("dropped 21 bytes (1 write)") == true)
    #expect(log.droppedReason(in: late) == nil)
    await log.end(early)
    await log.end(late)
  }
}

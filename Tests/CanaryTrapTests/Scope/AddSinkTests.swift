import Foundation
import Testing

@testable import CanaryTrap

/// Adds a sink from synchronous code, as the matrix's transport builder does.
private func addSynchronously(_ sink: any LeakSink, to trap: CanaryTrap) {
  trap.addSink(sink)
}

/// A sink of the test's own whose begin must suspend, so the synchronous path cannot finish it.
private final class SlowBeginningSink: LeakSink {
  let name = "slow-begin"
  var hearingRule: HearingRule { .anyByteDuringScope }
  func begin(_ window: SinkWindow) async throws { try await Task.sleep(for: .milliseconds(50)) }
  func collect() async throws -> [SinkContent] { [.bytes(Data("x".utf8), name: name)] }
}

@Suite("Adding a sink to a started scope")
struct AddSinkTests {
  private let quiet = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)

  /// One round: start, add a file sink (async or sync), deliver one canary to the scope's server,
  /// write `line(trap)` to a new file, finish.
  private func round(synchronously: Bool, _ line: @Sendable (CanaryTrap) -> String) async throws -> LeakReport
  {
    let directory = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let trap = CanaryTrap(title: "add-sink", configuration: quiet)
    try await trap.start()
    let sink = FileSink(name: "logs", urls: [directory])
    if synchronously {
      addSynchronously(sink, to: trap)
    } else {
      await trap.addSink(sink)
    }
    try await DeliveredCanary.send(in: trap)
    try Data((line(trap) + "\n").utf8).write(to: directory.appendingPathComponent("app.log"))
    return await trap.finish()
  }

  @Test(
    "a file written right after addSink returns is scanned, in every one of 12 rounds",
    arguments: [false, true])
  func fileWrittenRightAfterAddSinkIsScanned(synchronously: Bool) async throws {
    for index in 0..<12 {
      let report = try await round(synchronously: synchronously) { trap in
        "token=\(trap.canary(.token, at: .custom("log-\(index)")))"
      }
      #expect(report.verdict == .leaky, "round \(index): \(report.sources) \(report.errors)")
      #expect(report.findings.map(\.source) == ["logs:app.log"], "round \(index)")
    }
  }

  @Test(
    "twin: a file holding only the tracer, in a scope that delivered a canary, is heard and clean, in every one of 12 rounds",
    arguments: [false, true])
  func fileWithTracerOnlyIsClean(synchronously: Bool) async throws {
    for index in 0..<12 {
      let report = try await round(synchronously: synchronously) { trap in "GET /\(trap.tracer)/users 200" }
      #expect(report.verdict == .clean, "round \(index): \(report.sources) \(report.errors)")
      #expect(report.sources.map(\.status) == [.heard])
    }
  }

  @Test("a sink that cannot begin at once, added from synchronous code, makes the run inconclusive")
  func synchronousAddOfSlowSinkIsInconclusive() async throws {
    let trap = CanaryTrap(title: "slow", configuration: quiet)
    try await trap.start()
    addSynchronously(SlowBeginningSink(), to: trap)
    try await DeliveredCanary.send(in: trap)
    let report = await trap.finish()
    #expect(report.verdict == .inconclusive)
    #expect(report.errors.contains { $0.contains("await trap.addSink") }, "\(report.errors)")
  }

  @Test("twin: the same sink added with await is fully begun and heard")
  func asyncAddOfSlowSinkIsHeard() async throws {
    let trap = CanaryTrap(title: "slow", configuration: quiet)
    try await trap.start()
    await trap.addSink(SlowBeginningSink())
    try await DeliveredCanary.send(in: trap)
    let report = await trap.finish()
    #expect(report.verdict == .clean, "\(report.errors) \(report.sources)")
    #expect(report.sources.map(\.name) == ["slow-begin"])
  }
}

import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap

/// Ten scopes at once, all reading the sinks of one configuration, as the tests of a suite marked
/// `.canaryTrap(Configuration(sinks: [...]))` do when Swift Testing runs them in parallel.
@Suite("One configuration shared by scopes running in parallel")
struct SharedSinkTests {
  /// The shared sinks and the directory the file sink watches.
  private struct Shared {
    let directory: URL
    let log = MemoryLog(name: "shared-log")
    let buffer = Locked("")
    let configuration: CanaryTrap.Configuration

    init() throws {
      directory = try SinkTestSupport.makeTemporaryDirectory()
      let buffer = self.buffer
      configuration = CanaryTrap.Configuration(
        captureStandardStreams: false,
        sinks: [
          FileSink(name: "files", urls: [directory]), log, TextSink(name: "exporter") { buffer.current },
          StandardStreamsSink(),
        ],
        reportDirectory: nil)
    }
  }

  /// Runs ten scopes at once; each writes `line(trap, index)` to every shared sink.
  private func runTen(
    _ shared: Shared, line: @escaping @Sendable (CanaryTrap, Int) -> String
  ) async -> [(index: Int, report: LeakReport, own: Set<String>)] {
    await withTaskGroup(of: (Int, LeakReport, Set<String>).self) { group in
      for index in 0..<10 {
        group.addTask {
          let (_, report) = await CanaryTrap.withScope(
            title: "shared-\(index)", configuration: shared.configuration
          ) {
            trap in
            try await DeliveredCanary.send(in: trap)
            let text = line(trap, index)
            shared.log.write(text)
            shared.buffer.withLock { $0 += text + "\n" }
            try Data((text + "\n").utf8).write(
              to: shared.directory.appendingPathComponent("scope-\(index).log"))
            print(text)
            try await Task.sleep(for: .milliseconds(20))  // keep the windows open together
          }
          return (index, report, Set(report.canaries.map(\.value)))
        }
      }
      return await group.reduce(into: []) { $0.append(($1.0, $1.1, $1.2)) }
    }
  }

  @Test(
    "ten parallel scopes sharing a file sink, memory log, text sink and stdout each find their own canary only"
  )
  func eachScopeFindsItsOwnCanary() async throws {
    let shared = try Shared()
    defer { try? FileManager.default.removeItem(at: shared.directory) }
    let results = await runTen(shared) { trap, index in
      "scope \(index) token=\(trap.canary(.token, at: .custom("token")))"
    }
    #expect(results.count == 10)
    for (index, report, own) in results {
      #expect(own.count == 2)  // the delivered twin canary and the logged token
      #expect(!report.errors.contains { $0.contains("twice") }, "\(report.errors)")
      #expect(
        report.sources.allSatisfy { if case .failed = $0.status { false } else { true } }, "\(report.sources)"
      )
      #expect(
        report.findings.allSatisfy { own.contains($0.canary.value) }, "scope \(index) saw another's canary")
      let leakedInto = Set(report.findings.map(\.source))
      #expect(
        leakedInto.isSuperset(of: ["files:scope-\(index).log", "shared-log", "exporter", "stdout"]),
        "scope \(index): \(leakedInto)")
    }
  }

  @Test("twin: ten parallel scopes writing only their tracer to the shared sinks are all heard and clean")
  func tracerOnlyScopesAreClean() async throws {
    let shared = try Shared()
    defer { try? FileManager.default.removeItem(at: shared.directory) }
    let results = await runTen(shared) { trap, index in "scope \(index) GET /\(trap.tracer)/users 200" }
    for (index, report, _) in results {
      #expect(report.verdict == .clean, "scope \(index): \(report.problems.map(\.message))")
    }
  }
}

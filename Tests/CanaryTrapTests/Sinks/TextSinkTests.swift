import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap

@Suite struct TextSinkTests {
  /// An exporter the test cannot hand a logger to: its output is produced on demand.
  private final class BreadcrumbQueue: Sendable {
    private let crumbs = Locked<[String]>([])
    func record(_ crumb: String) { crumbs.withLock { $0.append(crumb) } }
    func export() -> String { crumbs.current.joined(separator: "\n") }
  }

  @Test func theClosureOutputIsCollectedAtTheEnd() async throws {
    let canary = SinkTestSupport.canary()
    let queue = BreadcrumbQueue()
    let sink = TextSink(name: "breadcrumbs") { queue.export() }
    let contents = try await SinkTestSupport.capture(sink) {
      queue.record("request failed: Authorization: Bearer \(canary)")
    }
    #expect(contents.map(\.name) == ["breadcrumbs"])
    #expect(try SinkTestSupport.anyContains(contents, canary))
  }

  @Test func cleanOutputHoldsNoCanary() async throws {
    let canary = SinkTestSupport.canary()
    let queue = BreadcrumbQueue()
    let sink = TextSink(name: "analytics", data: { Data(queue.export().utf8) })
    let contents = try await SinkTestSupport.capture(sink) {
      queue.record("request failed: Authorization: <redacted>")
    }
    #expect(try !SinkTestSupport.anyContains(contents, canary))
    #expect(try SinkTestSupport.bytes(of: contents[0]).count == 41)
  }

  @Test func aThrowingClosureFailsTheSinkWithItsName() async throws {
    struct ExportFailed: Error {}
    let sink = TextSink(name: "exporter") { () throws -> String in throw ExportFailed() }
    await #expect(throws: SinkError.self) { try await sink.collect() }
    do {
      _ = try await sink.collect()
    } catch let error as SinkError {
      #expect(error.sink == "exporter")
      #expect(error.description.contains("ExportFailed"))
    }
  }
}

import Foundation
import Testing

@testable import CanaryTrap

#if canImport(OSLog)
  import OSLog
#endif

@Suite struct OSLogSinkTests {
  #if canImport(OSLog)
    @Test func aPublicLogLineIsReadBackFromTheStore() async throws {
      let canary = SinkTestSupport.canary()
      let subsystem = "canarytrap.tests.\(UUID().uuidString)"
      let logger = Logger(subsystem: subsystem, category: "network")
      let contents = try await SinkTestSupport.capture(OSLogSink(subsystem: subsystem)) {
        logger.error("GET /me token=\(canary, privacy: .public)")
      }
      #expect(try SinkTestSupport.anyContains(contents, canary))
    }

    @Test func aRedactedLogLineHoldsNoCanary() async throws {
      let canary = SinkTestSupport.canary()
      let subsystem = "canarytrap.tests.\(UUID().uuidString)"
      let logger = Logger(subsystem: subsystem, category: "network")
      let contents = try await SinkTestSupport.capture(OSLogSink(subsystem: subsystem)) {
        logger.error("GET /me token=<redacted>")
      }
      #expect(try SinkTestSupport.anyContains(contents, "token=<redacted>"))
      #expect(try !SinkTestSupport.anyContains(contents, canary))
    }
  #else
    @Test func itReportsItselfUnavailableInsteadOfLookingClean() async throws {
      #expect(!OSLogSink.isAvailable)
      let sink = OSLogSink()
      try await sink.begin()
      do {
        _ = try await sink.collect()
        Issue.record("collect() returned content on a platform without os_log")
      } catch let error as SinkError {
        #expect(error.sink == "os-log")
        #expect(error.description.contains("unavailable on this platform"))
      }
      await sink.end()
    }
  #endif
}

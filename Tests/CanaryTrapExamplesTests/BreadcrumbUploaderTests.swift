import CanaryTrap
import CanaryTrapExamples
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The breadcrumb uploader against an ingest sink in the test's own process: leaky with full
/// URLs, clean with routes only, silent when it never uploads.
@Suite struct BreadcrumbUploaderTests {
  private func run(
    _ detail: BreadcrumbUploader.Detail, uploads: Bool = true, answers: [IngestAnswer] = [.ok]
  ) async throws -> (report: LeakReport, sink: IngestSink) {
    let ingest = IngestSink(
      settle: IngestSink.Settle(quiet: .milliseconds(150), timeout: .seconds(1)), answers: answers)
    try ingest.start()
    defer { ingest.stop() }
    let session = URLSession(configuration: .uncachedEphemeral)
    defer { session.invalidateAndCancel() }
    let uploader = BreadcrumbUploader(
      endpoint: ingest.url.appendingPathComponent("api/v2/breadcrumbs"), detail: detail, batchSize: 4,
      uploads: uploads, session: session)
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: false, sinks: [ingest], reportDirectory: nil)
    let (_, report) = await CanaryTrap.withScope(title: "breadcrumbs", configuration: configuration) { trap in
      try await trap.runMatrix(through: Transport { try await uploader.send($0) }, kinds: RequestKind.all)
      try await uploader.flush()
    }
    return (report, ingest)
  }

  @Test func fullBreadcrumbsLeakInTheirUploadsAndEachFindingNamesItsUpload() async throws {
    let (report, ingest) = try await run(.full)
    #expect(report.verdict == .leaky)
    #expect(report.leakedLocations.contains(.requestURL(.query("session"))))
    #expect(!report.leakedLocations.contains(.requestHeader("authorization")))
    #expect(!report.findings.isEmpty)
    for finding in report.findings {
      #expect(finding.source.hasPrefix("ingest /api/v2/breadcrumbs upload "), "\(finding.source)")
      #expect(finding.source.contains(" item "), "\(finding.source)")
    }
    let uploads = ingest.uploads
    #expect(uploads.count > 1)
    #expect(uploads.allSatisfy { $0.headers["Content-Encoding"] == "deflate" && $0.body.first == 0x78 })
  }

  @Test func routeOnlyBreadcrumbsAreCleanAndHeard() async throws {
    let (report, ingest) = try await run(.routeOnly)
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
    #expect(report.undelivered.isEmpty)
    #expect(!ingest.uploads.isEmpty)
    #expect(
      report.sources.contains {
        $0.name.hasPrefix("ingest /api/v2/breadcrumbs upload 1") && $0.status == .heard
      })
  }

  @Test func anUploaderThatNeverUploadsIsInconclusive() async throws {
    let (report, ingest) = try await run(.full, uploads: false)
    #expect(report.verdict == .inconclusive)
    #expect(ingest.uploads.isEmpty)
    #expect(report.problems.map(\.message).contains { $0.hasPrefix("ingest heard nothing of this run") })
  }

  @Test func aRateLimitedUploadIsRetriedAfterRetryAfterAndStillScanned() async throws {
    let (report, ingest) = try await run(.full, answers: [.tooManyRequests(retryAfter: 0), .ok])
    #expect(report.verdict == .leaky)
    let statuses = ingest.uploads.map(\.status)
    #expect(statuses.first == 429)
    #expect(statuses.dropFirst().allSatisfy { $0 == 200 })
    // The batch answered 429 went up again, whole.
    let first = try #require(ingest.uploads.first)
    #expect(ingest.uploads.dropFirst().contains { $0.body == first.body })
  }
}

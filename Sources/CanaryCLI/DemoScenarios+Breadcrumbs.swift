import CanaryTrap
import CanaryTrapExamples
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DemoScenario {
  /// Example 5: a crash reporter's breadcrumbs, batched and uploaded zlib-compressed to an ingest sink.
  static let breadcrumbUploader = DemoScenario(
    name: "breadcrumb-uploader",
    title: "5. BreadcrumbUploader — batches network breadcrumbs, uploads them zlib-compressed (ingest sink)",
    expectation: .leaks(
      at: [.requestURL(.query("session")), .requestURL(.path(2)), .requestURL(.query("access_token"))],
      notAt: [
        .requestHeader("authorization"), .requestHeader("X-API-KEY"), .requestCookie("sid"),
        .requestBody(.json("user.password")), .responseBody(.json("access_token")),
      ]),
    webSocket: .notRun(reason: "its breadcrumbs record URLSession data tasks; it has no WebSocket client"),
    run: { kinds, printing in await runBreadcrumbUploader(kinds: kinds, printing: printing) })

  /// Runs the matrix through a ``BreadcrumbUploader`` reporting to an ingest sink of this run.
  static func runBreadcrumbUploader(
    kinds: [RequestKind], printing: PrintDestination, detail: BreadcrumbUploader.Detail = .full,
    uploads: Bool = true
  ) async -> LeakReport {
    let ingest = IngestSink(settle: IngestSink.Settle(quiet: .milliseconds(200), timeout: .seconds(2)))
    do { try ingest.start() } catch {
      return LeakReport(
        title: "breadcrumb-uploader", canaries: [], errors: ["the ingest sink could not start: \(error)"])
    }
    defer { ingest.stop() }
    let session = URLSession(configuration: .uncachedEphemeral)
    defer { session.finishTasksAndInvalidate() }
    let uploader = BreadcrumbUploader(
      endpoint: ingest.url.appendingPathComponent("api/v2/breadcrumbs"), detail: detail, uploads: uploads,
      session: session)
    let configuration = CanaryTrap.Configuration(
      captureStandardStreams: printing == .standardOutput, sinks: [ingest], reportDirectory: nil)
    let (_, report) = await CanaryTrap.withScope(title: "breadcrumb-uploader", configuration: configuration) {
      trap in
      try await trap.runMatrix(through: Transport { try await uploader.send($0) }, kinds: kinds)
      try await uploader.flush()
    }
    return report
  }
}

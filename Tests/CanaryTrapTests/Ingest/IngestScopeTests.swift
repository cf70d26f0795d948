import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An uploader in the test's own process, reporting every request to an ingest sink the way a
/// crash reporter does: leaky, careful, never uploading, or in an encoding the sink cannot open.
private enum Uploaders {
  enum Style { case fullURL, routeOnly, never, brotliLabelled }

  /// Sends through `base`, then posts a gzip JSON breadcrumb to `sink` with the SDK's own key.
  static func reporting(_ base: Transport, to sink: IngestSink, style: Style, session: URLSession)
    -> Transport
  {
    Transport { request in
      let (data, response) = try await base.send(request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      let crumb: String
      switch style {
      case .never: return (data, response)
      case .fullURL: crumb = #"{"url":"\#(request.url?.absoluteString ?? "")","status":\#(status)}"#
      case .routeOnly, .brotliLabelled:
        crumb = #"{"method":"\#(request.httpMethod ?? "GET")","status":\#(status)}"#
      }
      var upload = URLRequest(url: URL(string: sink.url.absoluteString + "/api/1/store/?sentry_key=pub0123")!)
      upload.httpMethod = "POST"
      upload.setValue("application/json", forHTTPHeaderField: "Content-Type")
      upload.setValue(style == .brotliLabelled ? "br" : "gzip", forHTTPHeaderField: "Content-Encoding")
      upload.setValue("Sentry sentry_version=7, sentry_key=pub0123", forHTTPHeaderField: "X-Sentry-Auth")
      upload.setValue("pub0123", forHTTPHeaderField: "DD-API-KEY")
      let body = try ContentCoding.gzip.encode(Data(crumb.utf8))
      _ = try await session.upload(for: upload, from: body)
      return (data, response)
    }
  }
}

@Suite("Ingest sink in a scope")
struct IngestScopeTests {
  private let quiet = CanaryTrap.Configuration(captureStandardStreams: false, reportDirectory: nil)

  private func run(_ style: Uploaders.Style) async throws -> LeakReport {
    let sink = IngestSink(settle: IngestSink.Settle(quiet: .milliseconds(100), timeout: .milliseconds(800)))
    try sink.start()
    defer { sink.stop() }
    let session = TestTransports.session()
    let uploads = makeSession()
    defer {
      session.invalidateAndCancel()
      uploads.invalidateAndCancel()
    }
    let result = await CanaryTrap.matrix(
      title: "ingest", configuration: quiet, kinds: [.getQuery, .postJSON]
    ) {
      trap in
      trap.addSink(sink)
      return Uploaders.reporting(.urlSession(session), to: sink, style: style, session: uploads)
    }
    #expect(result.allDelivered)
    return try #require(result.report)
  }

  @Test("an uploader that reports the full URL leaks, each finding naming its upload")
  func fullURLLeaks() async throws {
    let report = try await run(.fullURL)
    #expect(report.verdict == .leaky)
    #expect(!report.findings.isEmpty)
    #expect(
      report.findings.allSatisfy {
        $0.source.hasPrefix("ingest /api/1/store/ upload ") && $0.source.hasSuffix(" body")
      })
  }

  @Test("twin: a careful uploader (method and status, SDK credentials in its headers and query) is clean")
  func carefulIsClean() async throws {
    let report = try await run(.routeOnly)
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
  }

  @Test("twin: an uploader that never uploads leaves the sink silent, so the run is inconclusive")
  func neverUploadingIsSilent() async throws {
    let report = try await run(.never)
    #expect(report.verdict == .inconclusive)
    #expect(report.problems.map(\.message).contains { $0.hasPrefix("ingest heard nothing of this run") })
  }

  @Test("twin: uploads in an encoding the sink cannot open make the run inconclusive, never clean")
  func unopenableIsInconclusive() async throws {
    let report = try await run(.brotliLabelled)
    #expect(report.verdict == .inconclusive)
    #expect(
      report.problems.map(\.message).contains { $0.contains("its Content-Encoding br cannot be opened") })
  }
}

import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

@testable import CanaryCLI

/// `canary serve --ingest` with an uploader in another process (Python, urllib and zlib): it
/// sends the app's request to the scripted server, then uploads a breadcrumb of it to the ingest
/// URL, deflate-compressed, with the SDK's own API key.
@Suite("canary serve --ingest")
struct ServeIngestTests {
  static let manifest = """
    {"version":1,"canaries":[{"value":"cnryIngestQuery001","location":"request.url.query[session]"}]}
    """

  static let uploader = """
    import sys, json, zlib, urllib.request, urllib.error
    base, ingest, mode = sys.argv[1:4]
    url = base + "/api/me?session=cnryIngestQuery001&page=2"
    try:
        with urllib.request.urlopen(url, timeout=5) as response: status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    if mode == "never": sys.exit(0)
    if mode == "full": crumb = {"type": "http", "data": {"url": url, "status_code": status}}
    else: crumb = {"type": "http", "data": {"method": "GET", "route": "/:x/:x", "status_code": status}}
    body = zlib.compress(json.dumps([crumb]).encode())
    headers = {"Content-Type": "application/json", "Content-Encoding": "deflate", "DD-API-KEY": "pub0123"}
    request = urllib.request.Request(ingest + "/api/v2/breadcrumbs", data=body, method="POST", headers=headers)
    urllib.request.urlopen(request, timeout=5).read()
    """

  /// Runs `canary serve --ingest 0` and the uploader in `mode`; returns the report's JSON text and standard error.
  private func run(mode: String) async throws -> (report: String, verdict: String?, standardError: String)? {
    guard let python = ExternalTools.require("python3", for: "the out-of-process uploader") else {
      return nil
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-ingest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let reportURL = directory.appendingPathComponent("ingest.json")
    try Data(Self.manifest.utf8).write(to: manifestURL)
    let captured = CapturedIO()
    let stopRequested = Locked(false)
    let command = Task {
      await ServeCommand.run(
        [
          "--manifest", manifestURL.path, "--record", directory.appendingPathComponent("record.jsonl").path,
          "--ingest", "0", "--ingest-report", reportURL.path,
        ], io: captured.io,
        until: { while !stopRequested.current { try? await Task.sleep(for: .milliseconds(5)) } })
    }
    var base: String?
    var ingest: String?
    for _ in 0..<1000 where base == nil || ingest == nil {
      try await Task.sleep(for: .milliseconds(5))
      base = captured.standardOutput.split(separator: "\n").first.map(String.init)
      ingest = captured.standardError.split(separator: "\n").first {
        $0.hasPrefix("canary serve: ingest on ")
      }
      .map { String($0.dropFirst("canary serve: ingest on ".count)) }
    }
    let process = TestProcess()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", Self.uploader, try #require(base), try #require(ingest), mode]
    try ChildProcessLaunch.run(process)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    stopRequested.withLock { $0 = true }
    #expect(await command.value == ExitStatus.success, "\(captured.standardError)")
    let data = try Data(contentsOf: reportURL)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (String(decoding: data, as: UTF8.self), json["verdict"] as? String, captured.standardError)
  }

  @Test("an uploader in another process that uploads the full URL leaks, the finding naming its upload")
  func fullURLLeaks() async throws {
    guard let (report, verdict, standardError) = try await run(mode: "full") else { return }
    #expect(verdict == "leaky")
    #expect(report.contains("ingest /api/v2/breadcrumbs upload 1 item 1"))
    #expect(standardError.contains("canary serve: ingest: 1 uploads kept, 0 dropped; "))
  }

  @Test("twin: a careful uploader in another process (method, route, status, its own API key) is clean")
  func carefulIsClean() async throws {
    guard let (report, verdict, _) = try await run(mode: "careful") else { return }
    #expect(verdict == "clean", "\(report)")
  }

  @Test("twin: an uploader in another process that never uploads is inconclusive")
  func neverIsInconclusive() async throws {
    guard let (report, verdict, standardError) = try await run(mode: "never") else { return }
    #expect(verdict == "inconclusive")
    #expect(report.contains("received nothing"))
    #expect(standardError.contains("canary serve: ingest: 0 uploads kept, 0 dropped; "))
  }

  @Test("--ingest-report without --ingest is a usage error, and nothing is served")
  func reportNeedsIngest() async throws {
    let manifestURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ingest-\(UUID().uuidString).json")
    try Data(Self.manifest.utf8).write(to: manifestURL)
    defer { try? FileManager.default.removeItem(at: manifestURL) }
    let captured = CapturedIO()
    let status = await ServeCommand.run(
      ["--manifest", manifestURL.path, "--ingest-report", "/tmp/never-written.json"], io: captured.io,
      until: {})
    #expect(status == ExitStatus.usage)
    #expect(captured.standardError.contains("--ingest-report needs --ingest PORT"))
    #expect(captured.standardOutput.isEmpty)
  }
}

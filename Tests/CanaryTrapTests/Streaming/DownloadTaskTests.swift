import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An app that downloads every response with a download task and moves the file the session wrote
/// into its own downloads directory, writing one line per download to an index file there; the
/// careful one deletes each file once it has read it.
private struct DownloadingApp: Sendable {
  let session: URLSession
  let destination: URL
  let keepsFiles: Bool

  var transport: Transport {
    Transport { request in
      try await withCheckedThrowingContinuation { continuation in
        let task = session.downloadTask(with: request) { file, response, error in
          guard let file, let response, error == nil else {
            return continuation.resume(throwing: error ?? URLError(.badServerResponse))
          }
          do {
            let kept = destination.appendingPathComponent("download-\(UUID().uuidString).bin")
            try FileManager.default.moveItem(at: file, to: kept)
            let data = try Data(contentsOf: kept)
            if !keepsFiles { try FileManager.default.removeItem(at: kept) }
            let route = (request.url?.path ?? "").split(separator: "/").prefix(2).joined(separator: "/")
            try appendLine("downloaded /\(route) (\(data.count) bytes)")
            continuation.resume(returning: (data, response))
          } catch {
            continuation.resume(throwing: error)
          }
        }
        task.resume()
      }
    }
  }

  private func appendLine(_ line: String) throws {
    let index = destination.appendingPathComponent("index.log")
    if !FileManager.default.fileExists(atPath: index.path) {
      _ = FileManager.default.createFile(atPath: index.path, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: index)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((line + "\n").utf8))
  }
}

@Suite("Download tasks")
struct DownloadTaskTests {
  private func destination() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("URLSession writes the body to a file in the temporary directory")
  func sessionWritesTheBodyToATemporaryFile() async throws {
    let server = LoopbackServer()
    server.on(.get, "/file", respond: .text("body cnryDownloadProbe0000\n"))
    try server.start()
    defer { server.stop() }
    let session = TestTransports.session()
    let seen = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<(String, String, Data), any Error>) in
      session.downloadTask(with: server.baseURL.appendingPathComponent("file")) { file, _, error in
        guard let file else { return continuation.resume(throwing: error ?? URLError(.unknown)) }
        let data = (try? Data(contentsOf: file)) ?? Data()
        try? FileManager.default.removeItem(at: file)
        continuation.resume(
          returning: (file.deletingLastPathComponent().standardizedFileURL.path, file.lastPathComponent, data)
        )
      }.resume()
    }
    #expect(seen.0 == FileManager.default.temporaryDirectory.standardizedFileURL.path)
    #if canImport(FoundationNetworking)
      #expect(seen.1.hasSuffix(".tmp"), "FoundationNetworking named its download file \(seen.1)")
    #else
      #expect(seen.1.hasPrefix("CFNetworkDownload_"), "URLSession named its download file \(seen.1)")
    #endif
    #expect(seen.2 == Data("body cnryDownloadProbe0000\n".utf8))
  }

  @Test("an app keeping its downloads is caught in its destination at the body's location")
  func keptDownloadsAreCaught() async throws {
    let destination = try destination()
    defer { try? FileManager.default.removeItem(at: destination) }
    let app = DownloadingApp(session: TestTransports.session(), destination: destination, keepsFiles: true)
    let result = await CanaryTrap.matrix(
      title: "downloads-kept", configuration: .init(captureStandardStreams: false),
      kinds: [.responseHeader]
    ) { trap in
      await trap.addSink(FileSink(name: "downloads", urls: [destination]))
      return app.transport
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(report.leakedLocations == [.responseBody(.text)])
    #expect(report.findings.allSatisfy { $0.source.hasPrefix("downloads:download-") })
  }

  @Test("an app deleting each download once read leaves its destination clean")
  func deletedDownloadsAreClean() async throws {
    let destination = try destination()
    defer { try? FileManager.default.removeItem(at: destination) }
    let app = DownloadingApp(session: TestTransports.session(), destination: destination, keepsFiles: false)
    let result = await CanaryTrap.matrix(
      title: "downloads-deleted", configuration: .init(captureStandardStreams: false),
      kinds: [.responseHeader]
    ) { trap in
      await trap.addSink(FileSink(name: "downloads", urls: [destination]))
      return app.transport
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.findings.isEmpty)
    #expect(report.verdict == .clean)
  }

  /// FoundationNetworking leaves a download task's file in the temporary directory after its
  /// handler returns (Apple's URLSession deletes it): the transport removes it, so a matrix run
  /// leaves no canary behind on the machine.
  @Test("a download transport leaves no file holding the body in the temporary directory")
  func downloadTransportRemovesItsFile() async throws {
    let marker = "cnryDownloadLeftover\(UInt64.random(in: 1...UInt64.max))"
    let server = LoopbackServer()
    server.on(.get, "/file", respond: .text("body \(marker)\n"))
    try server.start()
    defer { server.stop() }
    let request = URLRequest(url: server.baseURL.appendingPathComponent("file"))
    let (data, _) = try await Transport.urlSession(TestTransports.session(), mode: .download).send(request)
    #expect(String(decoding: data, as: UTF8.self) == "body \(marker)\n")
    #expect(try temporaryFiles(holding: marker) == [])
  }

  @Test("twin: a file holding the body in the temporary directory is found")
  func leftoverFileIsFound() throws {
    let marker = "cnryDownloadLeftover\(UInt64.random(in: 1...UInt64.max))"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).tmp")
    try Data("body \(marker)\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(try temporaryFiles(holding: marker) == [file.lastPathComponent])
  }

  /// The names of the small regular files at the top of the temporary directory that hold `marker`.
  private func temporaryFiles(holding marker: String) throws -> [String] {
    let directory = FileManager.default.temporaryDirectory
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    return names.filter { name in
      let url = directory.appendingPathComponent(name)
      let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
      guard values?.isRegularFile == true, (values?.fileSize ?? .max) < 4_096 else { return false }
      return (try? Data(contentsOf: url)).map { $0.range(of: Data(marker.utf8)) != nil } ?? false
    }
  }
}

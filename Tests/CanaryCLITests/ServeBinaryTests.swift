import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `canary` executable next to the test bundle, when `swift build` produced it.
enum ServeBinary {
  static let url: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("canary")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }()
}

@Suite("canary serve as a process")
struct ServeBinaryTests {
  @Test(.enabled(if: ServeBinary.url != nil, "needs the canary executable built next to the tests"))
  func sigtermStopsTheServerAndWritesTheRecord() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-bin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("m.json")
    let record = directory.appendingPathComponent("record.json")
    try Data(
      #"{"version":1,"canaries":[{"value":"cnryBinaryHeader01","location":"request.header[X-Key]"},{"value":"cnryBinaryResp0002","location":"response.header[X-Back]"}]}"#
        .utf8
    ).write(to: manifest)
    let process = Process()
    process.executableURL = try #require(ServeBinary.url)
    process.arguments = ["serve", "--manifest", manifest.path, "--record", record.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    let firstLine = try #require(readLine(from: output.fileHandleForReading))
    let baseURL = try #require(URL(string: firstLine))
    var request = URLRequest(url: baseURL.appendingPathComponent("hello"))
    request.setValue("cnryBinaryHeader01", forHTTPHeaderField: "X-Key")
    let (_, response) = try await makeCLISession().data(for: request)
    #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Back") == "cnryBinaryResp0002")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let json = try #require(try serveRecordLines(Data(contentsOf: record)).last)
    let sightings = try #require(json["requestCanaries"] as? [[String: Any]])
    #expect(sightings.first?["seen"] as? Bool == true)
  }

  /// Reads one line (without its newline) from a pipe, byte by byte, up to 5 seconds.
  private func readLine(from handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      let data = handle.readData(ofLength: 1)
      guard let byte = data.first else { return nil }
      if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    return nil
  }
}

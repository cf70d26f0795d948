// Runs the built executable as a child process, which exists on macOS and Linux only.
#if os(macOS) || os(Linux)
  import CanaryTrapPrimitives
  import Foundation
  import ServerTestSupport
  import Testing

  @testable import CanaryCLI

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// `canary serve` whose record nobody reads: the server keeps answering, and SIGTERM stops it
  /// promptly (issue 37). Before the record was written off the serving path, a pipe on standard
  /// output that its reader left alone stopped the server after about 61 requests, and SIGTERM
  /// waited for the pipe to drain.
  @Suite("canary serve with a record nobody reads")
  struct ServeBackpressureTests {
    static let manifest =
      #"{"version":1,"canaries":[{"value":"cnryBackpressure01","location":"request.header[X-Key]"},"#
      + #"{"value":"cnryBackpressResp2","location":"response.header[X-Back]"}]}"#

    /// Requests each answered within the client's 3-second receive timeout; more than a pipe's
    /// 64 KiB of record lines.
    static let requests = 250

    @Test func standardOutputThatIsNeverReadDoesNotStopTheServer() throws {
      guard let executable = CanaryExecutableLookup.shared.url else {
        DidNotRun.record(CanaryExecutableLookup.shared.explanation)
        return
      }
      let directory = try Self.directory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let manifest = directory.appendingPathComponent("m.json")
      try Data(Self.manifest.utf8).write(to: manifest)
      let (process, output, errors) = try Self.start(
        executable, ["serve", "--manifest", manifest.path], in: directory)
      defer { Self.kill(process) }
      let port = try #require(Self.port(fromFirstLineOf: output.fileHandleForReading))
      // From here on, nobody reads standard output.
      try Self.sendRequests(port: port, count: Self.requests, bodyBytes: 0)
      let elapsed = Self.terminate(process)
      // By design it stops within about 0.5 s (RELIABILITY measures it); the bound leaves room for
      // a machine busy with the rest of the suite, and the old server never stopped by itself.
      #expect(elapsed < .seconds(3), "SIGTERM took \(elapsed) to stop the server")
      #expect(process.terminationStatus == 2)
      let message = try String(decoding: Data(contentsOf: errors), as: UTF8.self)
      #expect(message.contains("stopped after \(Self.requests) requests"))
      #expect(message.contains("the record is incomplete"))
      _ = output
    }

    @Test func recordFIFOThatIsNeverReadDoesNotStopTheServerAndCountsWhatItDrops() throws {
      guard let executable = CanaryExecutableLookup.shared.url else {
        DidNotRun.record(CanaryExecutableLookup.shared.explanation)
        return
      }
      let directory = try Self.directory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let manifest = directory.appendingPathComponent("m.json")
      try Data(Self.manifest.utf8).write(to: manifest)
      let fifo = directory.appendingPathComponent("record.fifo")
      guard mkfifo(fifo.path, 0o600) == 0 else {
        DidNotRun.record("mkfifo failed: \(String(cString: strerror(errno)))")
        return
      }
      // A reader that opens the FIFO and never reads it.
      let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
      try #require(reader >= 0)
      defer { close(reader) }
      let (process, output, errors) = try Self.start(
        executable, ["serve", "--manifest", manifest.path, "--record", fifo.path], in: directory)
      defer { Self.kill(process) }
      let port = try #require(Self.port(fromFirstLineOf: output.fileHandleForReading))
      try Self.sendRequests(port: port, count: Self.requests, bodyBytes: 0)
      // 24 bodies of 1 MiB make record lines of about 3.7 MiB each: past the 16 MiB queue.
      try Self.sendRequests(port: port, count: 24, bodyBytes: 1 << 20)
      let elapsed = Self.terminate(process)
      // By design it stops within about 0.5 s (RELIABILITY measures it); the bound leaves room for
      // a machine busy with the rest of the suite, and the old server never stopped by itself.
      #expect(elapsed < .seconds(3), "SIGTERM took \(elapsed) to stop the server")
      #expect(process.terminationStatus == 2)
      let message = try String(decoding: Data(contentsOf: errors), as: UTF8.self)
      #expect(message.contains("stopped after \(Self.requests + 24) requests"))
      #expect(message.contains("record lines dropped"))
      #expect(message.contains("the record is incomplete"))
    }

    /// The twin: a record that is read gets every line and the summary, nothing dropped, exit 0.
    @Test func recordThatIsReadGetsEveryLine() throws {
      guard let executable = CanaryExecutableLookup.shared.url else {
        DidNotRun.record(CanaryExecutableLookup.shared.explanation)
        return
      }
      let directory = try Self.directory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let manifest = directory.appendingPathComponent("m.json")
      try Data(Self.manifest.utf8).write(to: manifest)
      let (process, output, errors) = try Self.start(
        executable, ["serve", "--manifest", manifest.path], in: directory)
      defer { Self.kill(process) }
      let handle = output.fileHandleForReading
      let port = try #require(Self.port(fromFirstLineOf: handle))
      let collected = Locked(Data())
      let drained = DispatchSemaphore(value: 0)
      Thread {
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          collected.withLock { $0.append(chunk) }
        }
        drained.signal()
      }.start()
      try Self.sendRequests(port: port, count: Self.requests, bodyBytes: 0)
      _ = Self.terminate(process)
      #expect(drained.wait(timeout: .now() + 5) == .success)
      #expect(process.terminationStatus == 0)
      let lines = try serveRecordLines(collected.current)
      #expect(lines.filter { $0["type"] as? String == "request" }.count == Self.requests)
      let summary = try #require(lines.last)
      #expect(summary["type"] as? String == "summary")
      #expect(summary["recordLinesDropped"] as? Int == 0)
      let message = try String(decoding: Data(contentsOf: errors), as: UTF8.self)
      #expect(!message.contains("dropped"))
      #expect(!message.contains("incomplete"))
    }

    // MARK: - Helpers

    static func directory() throws -> URL {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "serve-backpressure-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      return directory
    }

    /// Starts the executable with a pipe on standard output and a file for standard error.
    static func start(_ executable: URL, _ arguments: [String], in directory: URL) throws -> (
      TestProcess, Pipe, URL
    ) {
      let errors = directory.appendingPathComponent("stderr.txt")
      _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
      let errorHandle = try FileHandle(forWritingTo: errors)
      defer { try? errorHandle.close() }
      let process = TestProcess()
      process.executableURL = executable
      process.arguments = arguments
      let output = Pipe()
      process.standardOutput = output
      process.standardError = errorHandle
      try ChildProcessLaunch.run(process)
      return (process, output, errors)
    }

    /// The port of the base URL on the first line, read byte by byte for at most 5 seconds.
    static func port(fromFirstLineOf handle: FileHandle) -> UInt16? {
      var bytes: [UInt8] = []
      let deadline = Date().addingTimeInterval(5)
      while Date() < deadline {
        guard let byte = handle.readData(ofLength: 1).first else { return nil }
        if byte == 10 {
          return URL(string: String(decoding: bytes, as: UTF8.self))?.port.flatMap(UInt16.init)
        }
        bytes.append(byte)
      }
      return nil
    }

    /// Sends `count` requests, one connection each, each of which must be answered within the
    /// client's receive timeout.
    static func sendRequests(port: UInt16, count: Int, bodyBytes: Int) throws {
      let padding = String(repeating: "p", count: 1000)
      let body = [UInt8](repeating: UInt8(ascii: "b"), count: bodyBytes)
      for index in 0..<count {
        let client = try RawClient(port: port, receiveTimeout: 3)
        let head =
          "POST /request/\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Key: cnryBackpressure01\r\n"
          + "X-Padding: \(padding)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        #expect(client.send(Array(head.utf8) + body) == 0)
        let response = try #require(client.readResponse(), "request \(index) was not answered")
        #expect(response.contains("cnryBackpressResp2"))
      }
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after 5 seconds); returns how long it took.
    static func terminate(_ process: TestProcess) -> Duration {
      let start = ContinuousClock.now
      Glibc.kill(process.processIdentifier, SIGTERM)
      while process.isRunning && ContinuousClock.now - start < .seconds(5) {
        usleep(5_000)
      }
      let elapsed = ContinuousClock.now - start
      kill(process)
      return elapsed
    }

    static func kill(_ process: TestProcess) {
      if process.isRunning {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
  }
#endif

/// The writer's queue: bounded, never blocking, dropping and counting what does not fit.
@Suite("serve record writer")
struct ServeRecordWriterTests {
  @Test func aWriterThatIsStuckDropsPastTheLimitAndCountsEveryDrop() {
    let release = DispatchSemaphore(value: 0)
    let writer = ServeRecordWriter(maxQueuedBytes: 10_000) { _ in release.wait() }
    writer.start()
    let line = Data(repeating: UInt8(ascii: "x"), count: 1_000)
    let accepted = (0..<50).filter { _ in writer.enqueue(line) }.count
    // The bytes in the stuck write count against the limit until written: exactly 10 fit.
    #expect(accepted == 10)
    #expect(writer.droppedLines == 40)
    let start = ContinuousClock.now
    let outcome = writer.finish(idleLimit: .milliseconds(50))
    #expect(ContinuousClock.now - start < .seconds(5))
    #expect(outcome.droppedLines == 40)
    #expect(outcome.unwrittenBytes == 10_000)
    #expect(outcome.failure == nil)
    for _ in 0..<10 { release.signal() }
  }

  /// The twin: a reader that keeps up gets every line, in order, and nothing is dropped.
  @Test func aWriterThatKeepsUpWritesEveryLineInOrder() {
    let written = Locked(Data())
    let writer = ServeRecordWriter(maxQueuedBytes: 10_000) { data in written.withLock { $0.append(data) } }
    writer.start()
    var expected = Data()
    for index in 0..<2_000 {
      let line = Data("line \(index)\n".utf8)
      expected.append(line)
      while !writer.enqueue(line) { usleep(100) }
    }
    let outcome = writer.finish()
    #expect(outcome.unwrittenBytes == 0)
    #expect(written.current == expected)
  }

  @Test func aWriteErrorEndsTheWritingAndIsReported() {
    struct Broken: Error, CustomStringConvertible { var description: String { "the pipe broke" } }
    let writer = ServeRecordWriter(maxQueuedBytes: 10_000) { _ in throw Broken() }
    writer.start()
    writer.enqueue(Data("one\n".utf8))
    let outcome = writer.finish()
    #expect(outcome.failure == "the pipe broke")
    #expect(outcome.unwrittenBytes == 0)
  }
}

import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nothing hangs: a FIFO waits a bounded time for the process at its other end, and an input
/// longer than `--max-bytes` (an endless device, a huge file, endless standard input) is scanned
/// that far and makes the run inconclusive, never clean.
@Suite struct BoundedInputTests {
  @Test func aFIFOWithoutAWriterIsAnErrorAfterTheWait() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("pipe.log")
    try #require(mkfifo(fifo, 0o600) == 0)
    let manifest = workspace.manifest
    let outcome = await ScanSpecialFileTests.bounded(seconds: 30, fifo: fifo) {
      // Timed inside the command's own task: the test's task may wait long for a cooperative
      // thread when other tests hold them.
      let started = ContinuousClock.now
      let result = await workspace.run(["scan", "-m", manifest, "--fifo-wait", "1", fifo])
      return (result, ContinuousClock.now - started)
    }
    let (result, took) = try #require(outcome, "canary scan of a FIFO without a writer did not end")
    #expect(result.status == ExitStatus.usage)
    #expect(
      result.error.contains("cannot read \(fifo): it is a FIFO and no process wrote to it within 1 s"),
      "\(result.error)")
    #expect(took < .seconds(20))
  }

  @Test func aFIFOManifestOrDocumentWithoutAWriterIsAnErrorAfterTheDefaultWait() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("manifest.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    let log = workspace.log
    for words in [
      ["scan", "-m", fifo, log], ["kinds", "--har", fifo], ["baseline", "--from-report", fifo],
    ] {
      let outcome = await ScanSpecialFileTests.bounded(seconds: 60, fifo: fifo) {
        await workspace.run(words)
      }
      let result = try #require(outcome, "canary \(words[0]) reading a FIFO without a writer did not end")
      #expect(result.status == ExitStatus.usage, "\(words)")
      #expect(
        result.error.contains("\(fifo): it is a FIFO and no process wrote to it within 10 s"),
        "\(words): \(result.error)")
    }
  }

  @Test func aFIFOOpensOnceItsOtherEndComesAndGivesUpAfterTheWait() throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("pipe")
    try #require(mkfifo(fifo, 0o600) == 0)
    let path = Array(fifo.utf8)
    #expect(throws: BoundedOpen.Failure.self) { try BoundedOpen.forReading(path, wait: .milliseconds(100)) }
    #expect(throws: BoundedOpen.Failure.self) { try BoundedOpen.forWriting(path, wait: .milliseconds(100)) }
    // Twin: with the other end there, each opens, and the descriptor blocks as usual.
    let plainReader = open(fifo, O_RDONLY | O_NONBLOCK)
    try #require(plainReader >= 0)
    defer { close(plainReader) }
    let writer = try BoundedOpen.forWriting(path, wait: .milliseconds(100))
    defer { close(writer) }
    #expect(fcntl(writer, F_GETFL) & O_NONBLOCK == 0)
    #expect(write(writer, "x", 1) == 1)
    let reader = try BoundedOpen.forReading(path, wait: .milliseconds(100))
    defer { close(reader) }
    #expect(fcntl(reader, F_GETFL) & O_NONBLOCK == 0)
  }

  @Test(arguments: OutputWriter.all)
  func aFIFOOutputWithoutAReaderIsAnErrorAfterTheWait(_ writer: OutputWriter) async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("out.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    _ = workspace.log
    _ = workspace.reports
    let outcome = await ScanSpecialFileTests.bounded(seconds: 30, fifo: fifo) {
      await writer.run(workspace, output: fifo, ["--fifo-wait", "1"])
    }
    let result = try #require(outcome, "\(writer) to a FIFO without a reader did not end")
    #expect(result.status == ExitStatus.usage, "\(writer)")
    #expect(
      result.error.contains(
        "cannot write \(fifo): it is a FIFO and no process opened it for reading within 1 s"),
      "\(writer): \(result.error)")
  }

  @Test func aFIFOOutputWithAReaderGetsTheReport() async throws {
    // Twin of the refusal: the same FIFO with a reader gets the whole report.
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("out.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    let received = Locked(Data())
    let reader = Thread {
      let fd = open(fifo, O_RDONLY)
      guard fd >= 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let got = read(fd, &buffer, buffer.count)
        guard got > 0 else { break }
        received.withLock { $0.append(contentsOf: buffer[0..<got]) }
      }
      close(fd)
    }
    reader.start()
    let log = workspace.log
    let manifest = workspace.manifest
    let outcome = await ScanSpecialFileTests.bounded(seconds: 30, fifo: fifo) {
      await workspace.run(["scan", "-m", manifest, "-o", fifo, log])
    }
    let result = try #require(outcome)
    #expect(result.status == ExitStatus.leaks, "\(result.error)")
    for _ in 0..<200 where !String(decoding: received.current, as: UTF8.self).contains("LEAKY") {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(String(decoding: received.current, as: UTF8.self).contains("LEAKY"))
  }

  #if os(Linux) || os(macOS)
    @Test func devZeroStopsAtTheLimitAndIsInconclusive() throws {
      let workspace = try ScanWorkspace()
      defer { workspace.remove() }
      let result = try CanaryProcess.run(
        "\"$CANARY\" scan -m manifest.json --max-bytes 1M /dev/zero", in: workspace.root, seconds: 60)
      #expect(result.status == ExitStatus.inconclusive, "\(result.error)")
      #expect(
        result.error.contains(
          "canary scan: /dev/zero: stopped after 1048576 bytes (--max-bytes): the rest was not looked at;"
            + " the scan is inconclusive"), "\(result.error)")
      #expect(result.output.contains("INCONCLUSIVE"), "\(result.output)")
    }
  #endif

  @Test func aFileLongerThanTheLimitIsInconclusiveAndItsLeakStillFound() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let padding = String(repeating: "nothing secret here\n", count: 200)
    let leaky = try workspace.write("leaky.log", OutputWriter.leak + padding)
    let clean = try workspace.write("clean.log", padding)
    let limit = "1K"
    let found = await workspace.run(["scan", "-m", workspace.manifest, "--max-bytes", limit, leaky])
    #expect(found.status == ExitStatus.leaks)
    #expect(found.error.contains("\(leaky): stopped after 1024 bytes"), "\(found.error)")
    let cut = await workspace.run(["scan", "-m", workspace.manifest, "--max-bytes", limit, clean])
    #expect(cut.status == ExitStatus.inconclusive, "\(cut.error)")
    #expect(cut.error.contains("\(clean): stopped after 1024 bytes"))
    // Twin: a file of exactly the limit is read whole and clean.
    let exact = try workspace.write("exact.log", String(padding.prefix(1024)))
    let whole = await workspace.run(["scan", "-m", workspace.manifest, "--max-bytes", limit, exact])
    #expect(whole.status == ExitStatus.success, "\(whole.error)")
    #expect(whole.error.isEmpty)
  }

  @Test func standardInputLongerThanTheLimitIsInconclusive() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let text = Data(String(repeating: "x", count: 3000).utf8)
    let cut = await workspace.run(["scan", "-m", workspace.manifest, "--max-bytes", "1K", "-"], input: text)
    #expect(cut.status == ExitStatus.inconclusive)
    #expect(cut.error.contains("-: stopped after 1024 bytes"), "\(cut.error)")
    let exact = await workspace.run(
      ["scan", "-m", workspace.manifest, "--max-bytes", "1K", "-"], input: text.prefix(1024))
    #expect(exact.status == ExitStatus.success, "\(exact.error)")
    // A gzip on standard input cut by the limit is inconclusive for that reason, not corrupt.
    let gzip = try workspace.write("big.txt", (0..<400).map { "line \($0) \(UUID())\n" }.joined())
    let compressed = try CanaryProcess.run("gzip -c big.txt > big.txt.gz", in: workspace.root)
    #expect(compressed.status == 0)
    let gzipped = try Data(contentsOf: URL(fileURLWithPath: gzip + ".gz"))
    #expect(gzipped.count > 1024)
    let container = await workspace.run(
      ["scan", "-m", workspace.manifest, "--max-bytes", "1K", "-"], input: gzipped)
    #expect(container.status == ExitStatus.inconclusive, "\(container.error)")
    #expect(container.error.contains("-: stopped after 1024 bytes"), "\(container.error)")
  }

  @Test func baselineRefusesAnInputCutAtTheLimit() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("big.log", String(repeating: "nothing secret here\n", count: 200))
    let result = await workspace.run(["baseline", "-m", workspace.manifest, "--max-bytes", "1K", log])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("raise --max-bytes so the baseline can name every leak"), "\(result.error)")
    #expect(result.output.isEmpty)
  }

  @Test func maxBytesTakesASize() async throws {
    #expect(ScanArguments.byteCount("512") == 512)
    #expect(ScanArguments.byteCount("64k") == 64 << 10)
    #expect(ScanArguments.byteCount("32G") == 32 << 30)
    for bad in ["0", "-1", "1X", "G", "", "99999999999999999999T"] {
      #expect(ScanArguments.byteCount(bad) == nil, "\(bad)")
    }
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let result = await workspace.run(["scan", "-m", workspace.manifest, "--max-bytes", "lots", workspace.log])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("--max-bytes needs a size such as 512M or 16G, not 'lots'"))
  }
}

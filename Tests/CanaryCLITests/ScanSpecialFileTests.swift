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

/// Inputs that are streams, not files: a FIFO is read once (never reopened to number lines), so
/// a canary in it is reported with its line instead of hanging the scan.
@Suite struct ScanSpecialFileTests {
  /// Writes `text` into the FIFO at `path` from another thread, once a reader opens it.
  static func feed(_ path: String, _ text: String) -> Thread {
    let thread = Thread {
      let fd = open(path, O_WRONLY)
      guard fd >= 0 else { return }
      _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      close(fd)
    }
    thread.start()
    return thread
  }

  /// Runs `body` and waits at most `seconds`; on a timeout, opens the FIFO for writing and for
  /// reading (and closes it) so a blocked reader or writer ends, and returns `nil`. The body runs
  /// on its own queue and the clock on its own thread, so blocked cooperative threads stop neither.
  static func bounded<T: Sendable>(
    seconds: Double, fifo: String, _ body: @escaping @Sendable () async -> T
  ) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      let resumed = Locked(false)
      @Sendable func finish(_ value: T?) -> Bool {
        let first = resumed.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: value) }
        return first
      }
      BlockingWorkExecutor.start { _ = finish(await body()) }
      Thread {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
          if resumed.current { return }
          usleep(20_000)
        }
        if finish(nil) {
          for _ in 0..<3 {
            for mode in [O_WRONLY, O_RDONLY] {
              let fd = open(fifo, mode | O_NONBLOCK)
              if fd >= 0 { close(fd) }
            }
            usleep(100_000)
          }
        }
      }.start()
    }
  }

  @Test func aFIFOHoldingACanaryIsReportedWithItsLineAndDoesNotHang() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("pipe.log")
    try #require(mkfifo(fifo, 0o600) == 0)
    let writer = Self.feed(fifo, "first line\nsecond line\nthird X-Session: \(ScanWorkspace.canary.value)\n")
    _ = writer
    let manifest = workspace.manifest
    let outcome = await Self.bounded(seconds: 120, fifo: fifo) {
      let captured = CapturedIO()
      let code = await CommandLineTool.run(
        ["scan", "--manifest", manifest, "--format", "json", fifo], io: captured.io)
      return (code, captured.standardOutput)
    }
    let (status, output) = try #require(outcome, "canary scan of a FIFO did not finish within 120 s")
    #expect(status == ExitStatus.leaks)
    #expect(output.contains(#""line" : 3"#))
    #expect(output.contains(#""column" : 18"#))
  }

  @Test func theLibraryScansAFIFOOnceToo() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("pipe").path
    try #require(mkfifo(fifo, 0o600) == 0)
    _ = Self.feed(fifo, "a\nb\n  \(ScanWorkspace.canary.value)\n")
    let scanner = LeakScanner(canaries: [ScanWorkspace.canary])
    let found = await Self.bounded(seconds: 120, fifo: fifo) {
      (try? scanner.scanFile(at: URL(fileURLWithPath: fifo), source: "pipe"))?.findings.map(\.line)
    }
    let lines = try #require(found, "scanning a FIFO did not finish within 120 s")
    #expect(lines == [3])
  }

  @Test func aFIFOWithoutACanaryIsClean() async throws {
    // Twin of the FIFO leak test: the same path and writer, clean text.
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let fifo = workspace.path("pipe.log")
    try #require(mkfifo(fifo, 0o600) == 0)
    _ = Self.feed(fifo, "nothing secret\n")
    let manifest = workspace.manifest
    let status = await Self.bounded(seconds: 120, fifo: fifo) {
      await CommandLineTool.run(["scan", "--manifest", manifest, fifo], io: CapturedIO().io)
    }
    #expect(status == ExitStatus.success)
  }
}

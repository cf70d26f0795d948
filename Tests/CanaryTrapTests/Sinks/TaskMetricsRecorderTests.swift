import CanaryTrap
import CanaryTrapPrimitives
import CanaryTrapServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An app's session delegate that reads bodies itself and chains task events to a recorder.
private final class ChainingSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let recorder: TaskMetricsRecorder
  private let running = Locked<[Int: (Data, CheckedContinuation<(Data, URLResponse), any Error>)]>([:])
  private(set) var session: URLSession!

  init(chainingTo recorder: TaskMetricsRecorder) {
    self.recorder = recorder
    super.init()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }

  func send(_ request: URLRequest, description: String) async throws -> (Data, URLResponse) {
    try await withCheckedThrowingContinuation { continuation in
      let task = session.dataTask(with: request)
      task.taskDescription = description
      running.withLock { $0[task.taskIdentifier] = (Data(), continuation) }
      task.resume()
    }
  }

  var transport: Transport {
    Transport { request in try await self.send(request, description: "fetch \(request.url?.path ?? "")") }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    running.withLock { $0[dataTask.taskIdentifier]?.0.append(data) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics
  ) {
    recorder.record(task, didFinishCollecting: metrics)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    recorder.record(task, didCompleteWithError: error)
    guard let (data, continuation) = running.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
      return
    }
    if let error {
      continuation.resume(throwing: error)
    } else if let response = task.response {
      continuation.resume(returning: (data, response))
    } else {
      continuation.resume(throwing: URLError(.badServerResponse))
    }
  }
}

@Suite("Task metrics recorder")
struct TaskMetricsRecorderTests {
  private static func server() throws -> LoopbackServer {
    let server = LoopbackServer()
    server.on(.get, "/start", respond: .redirect(302, to: "/final?hop=cnryHopProbe"))
    server.on(.get, "/final", respond: ServerResponse.json("{}").header("X-Reply", "cnryReplyProbe"))
    try server.start()
    return server
  }

  private static func probeRequest(_ server: LoopbackServer) -> URLRequest {
    var request = URLRequest(url: URL(string: "\(server.baseURL.absoluteString)/start?q=cnryQueryProbe")!)
    request.setValue("cnryHeaderProbe", forHTTPHeaderField: "X-Token")
    return request
  }

  @Test("installed as the session's delegate: what this platform's URLSession reports to it")
  func installedAsDelegate() async throws {
    let server = try Self.server()
    defer { server.stop() }
    let recorder = TaskMetricsRecorder()
    let session = URLSession(configuration: .ephemeral, delegate: recorder, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    // A task with no completion handler: its events go to the delegate.
    let task = session.dataTask(with: Self.probeRequest(server))
    task.taskDescription = "probe cnryDescriptionProbe"
    task.resume()
    for _ in 0..<400 where !recorder.lines.contains(where: { $0.contains(" completed: ") }) {
      try await Task.sleep(for: .milliseconds(5))
    }
    // A completion-handler task and `data(for:)` tell the session's delegate nothing here.
    _ = try await session.data(for: Self.probeRequest(server))
    try await Task.sleep(for: .milliseconds(100))
    let text = recorder.lines.joined(separator: "\n")
    #expect(text.contains("\"probe cnryDescriptionProbe\" completed: 200"))
    #expect(text.contains("/start?q=cnryQueryProbe"), "the original URL, query included")
    #if canImport(FoundationNetworking)
      // FoundationNetworking never calls `urlSession(_:task:didFinishCollecting:)`: no metrics, so
      // no transaction, header or redirect line; and nothing at all for the `data(for:)` task.
      #expect(recorder.lines.count == 1, "\(recorder.lines)")
      #expect(!text.contains("transaction"))
    #else
      #expect(text.contains("transaction 2: GET"))
      #expect(text.contains("> X-Token: cnryHeaderProbe"))
      #expect(text.contains("hop=cnryHopProbe"))
    #endif
  }

  @Test("a failed task is recorded with its error code, and in full with its failing URL")
  func failedTask() async throws {
    // A port bound but not listening refuses connections, and no other test's server can take it
    // meanwhile (a stopped server's port could be reused by a parallel test and answer 200).
    let refusing = try RefusingPort()
    let port = refusing.port
    for detail in [TaskMetricsRecorder.Detail.full, .timingsOnly] {
      let recorder = TaskMetricsRecorder(detail: detail)
      let app = ChainingSession(chainingTo: recorder)
      let request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/gone?key=cnryFailedProbe")!)
      await #expect(throws: (any Error).self) { try await app.send(request, description: "gone") }
      let line = try #require(recorder.lines.last)
      #expect(line.contains("failed: NSURLErrorDomain \(NSURLErrorCannotConnectToHost)"), "\(line)")
      #expect(line.contains("cnryFailedProbe") == (detail == .full), "\(line)")
    }
    withExtendedLifetime(refusing) {}
  }

  @Test("past its limit, lines are dropped and counted, and the run is not clean")
  func boundedByItsLimit() async throws {
    let recorder = TaskMetricsRecorder(name: "metrics", detail: .timingsOnly, limit: .init(maxLines: 1))
    let result = await CanaryTrap.matrix(
      title: "metrics-bounded", configuration: .init(captureStandardStreams: false),
      kinds: [.getQuery, .postJSON]
    ) { trap in
      trap.addSink(recorder)
      return ChainingSession(chainingTo: recorder).transport
    }
    let report = try #require(result.report)
    #expect(recorder.lines.count == 1)
    #expect(recorder.droppedLines == 1)
    #expect(report.verdict != .clean)
    #expect(report.problems.contains { "\($0)".contains("dropped") }, "\(report.problems)")
  }

  @Test("an app that records task URLs in full is caught at every query canary")
  func fullRecorderIsCaught() async throws {
    let recorder = TaskMetricsRecorder()
    let result = await CanaryTrap.matrix(
      title: "metrics-full", configuration: .init(captureStandardStreams: false), kinds: [.getQuery]
    ) { trap in
      trap.addSink(recorder)
      return ChainingSession(chainingTo: recorder).transport
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    #expect(Set(report.leakedLocations) == [.requestURL(.query("session")), .requestURL(.query("email"))])
    #expect(
      report.findings.allSatisfy { $0.source.hasPrefix("task-metrics") }, "\(report.findings.map(\.source))")
  }

  @Test("an app that records timings only is clean, and the recorder heard the run")
  func timingsOnlyRecorderIsClean() async throws {
    let recorder = TaskMetricsRecorder(detail: .timingsOnly)
    let result = await CanaryTrap.matrix(
      title: "metrics-timings", configuration: .init(captureStandardStreams: false), kinds: [.getQuery]
    ) { trap in
      trap.addSink(recorder)
      return ChainingSession(chainingTo: recorder).transport
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .clean)
    #expect(recorder.lines.count == 1)
  }
}

/// A loopback TCP port bound and never listened on: connecting to it is refused, and while it is
/// held the kernel gives the port to no other socket.
private final class RefusingPort {
  let port: UInt16
  private let descriptor: Int32

  init() throws {
    let fd = socket(AF_INET, SocketShims.streamType, 0)
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    guard SocketShims.withLoopbackAddress(ipv6: false, port: 0, { bind(fd, $0, $1) }) == 0 else {
      SocketShims.closeDescriptor(fd)
      throw SocketError(call: "bind", code: errno)
    }
    descriptor = fd
    port = try ListeningSocket.localAddress(fd).port
  }

  deinit { SocketShims.closeDescriptor(descriptor) }
}

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A sink of what URLSession reports to a task delegate: each task's description, the
/// `URLSessionTaskMetrics` of each transaction (request URL, method, header fields, status,
/// protocol) and how the task ended, recorded as lines, the way an app that logs task metrics
/// would write them (see <doc:Sinks>).
///
/// Install it as the session's delegate (`URLSession(configuration:delegate:delegateQueue:)`), or
/// call ``record(_:didFinishCollecting:)`` and ``record(_:didCompleteWithError:)`` from your own
/// delegate, and add it to the scope with `await trap.addSink(_:)`. Any line proves it heard the
/// run (``HearingRule/anyByteDuringScope``). Lines past its ``MemoryLog/Limit`` are dropped and
/// counted (`droppedLines`), and the run cannot then be clean.
public final class TaskMetricsRecorder: NSObject, URLSessionTaskDelegate, LeakSink, ImmediatelyBeginningSink,
  DroppingSink, @unchecked Sendable
{
  /// What the recorder writes of each task.
  public enum Detail: Sendable, Hashable {
    /// Everything: descriptions, URLs, header fields, error descriptions and failing URLs.
    case full
    /// Only task numbers, methods, status codes, durations, redirect counts and error codes: no
    /// URL, header, description or error message.
    case timingsOnly
  }

  /// The sink's name in reports.
  public let name: String
  /// What the recorder writes of each task.
  package let detail: Detail
  private let log: MemoryLog

  /// Creates a recorder named `name` that keeps at most `limit` of lines.
  public init(name: String = "task-metrics", detail: Detail = .full, limit: MemoryLog.Limit = .default) {
    self.name = name
    self.detail = detail
    self.log = MemoryLog(name: name, limit: limit)
  }

  /// The lines recorded so far.
  package var lines: [String] { log.lines }

  /// How many lines were dropped past the limit.
  package var droppedLines: Int { log.droppedWrites }

  /// Any byte recorded during the scope proves the recorder heard the run.
  public var hearingRule: HearingRule { .anyByteDuringScope }

  /// Records the metrics of `task`: one line for the task, one per transaction, and with
  /// ``Detail/full`` one per request and response header field of each transaction.
  public func record(_ task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
    let seconds = metrics.taskInterval.duration
    var lines = [
      "task \(task.taskIdentifier)\(described(task)): \(metrics.transactionMetrics.count) transactions,"
        + " \(metrics.redirectCount) redirects, \(String(format: "%.3f", seconds)) s"
    ]
    for (index, transaction) in metrics.transactionMetrics.enumerated() {
      let method = transaction.request.httpMethod ?? "GET"
      let status = (transaction.response as? HTTPURLResponse)?.statusCode ?? 0
      let fetch = String(describing: transaction.resourceFetchType)
      let proto = transaction.networkProtocolName ?? "-"
      guard detail == .full else {
        lines.append("  transaction \(index + 1): \(method) → \(status) (\(fetch), \(proto))")
        continue
      }
      lines.append(
        "  transaction \(index + 1): \(method) \(transaction.request.url?.absoluteString ?? "-") → \(status)"
          + " \(transaction.response?.url?.absoluteString ?? "-") (\(fetch), \(proto))")
      for (field, value) in (transaction.request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        lines.append("    > \(field): \(value)")
      }
      let responseFields = (transaction.response as? HTTPURLResponse)?.allHeaderFields ?? [:]
      for (field, value) in responseFields.map({ ("\($0.key)", "\($0.value)") }).sorted(by: { $0.0 < $1.0 }) {
        lines.append("    < \(field): \(value)")
      }
    }
    for line in lines { log.write(line) }
  }

  /// Records how `task` ended: its status, or its error (with ``Detail/full``, the error's
  /// description and failing URL too).
  public func record(_ task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let error else {
      let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
      let url = detail == .full ? " \(task.originalRequest?.url?.absoluteString ?? "-")" : ""
      log.write("task \(task.taskIdentifier)\(described(task)) completed: \(status)\(url)")
      return
    }
    let failure = error as NSError
    var line = "task \(task.taskIdentifier)\(described(task)) failed: \(failure.domain) \(failure.code)"
    if detail == .full {
      line += " \(failure.localizedDescription)"
      // The failing URL as Foundation records it: a URL, or (FoundationNetworking) only its string.
      if let url = failure.userInfo[NSURLErrorFailingURLErrorKey] as? URL {
        line += " \(url.absoluteString)"
      } else if let url = failure.userInfo["NSErrorFailingURLStringKey"] as? String {
        line += " \(url)"
      }
    }
    log.write(line)
  }

  private func described(_ task: URLSessionTask) -> String {
    guard detail == .full, let description = task.taskDescription, !description.isEmpty else { return "" }
    return " \"\(description)\""
  }

  /// Calls ``record(_:didFinishCollecting:)``.
  public func urlSession(
    _ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics
  ) {
    record(task, didFinishCollecting: metrics)
  }

  /// Calls ``record(_:didCompleteWithError:)``.
  public func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    record(task, didCompleteWithError: error)
  }

  /// Every line recorded.
  public func collect() async throws -> [SinkContent] { try await log.collect() }

  /// Starts a window at the current end of the recorded lines.
  public func begin(_ window: SinkWindow) async throws { try log.beginImmediately(window) }

  func beginImmediately(_ window: SinkWindow) throws { try log.beginImmediately(window) }

  /// The lines recorded since `window` began.
  public func collect(_ window: SinkWindow) async throws -> [SinkContent] { try await log.collect(window) }

  /// Ends `window`.
  public func end(_ window: SinkWindow) async { await log.end(window) }

  func droppedReason(in window: SinkWindow) -> String? {
    log.droppedReason(in: window).map { "task metrics recorder " + $0.dropFirst("memory log ".count) }
  }
}
